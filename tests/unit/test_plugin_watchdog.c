/* SPDX-License-Identifier: MIT */
/*
 * The read callback's watchdog: a reader thread that died is restarted, and
 * a restart that failed is tried again at every read until one succeeds (the
 * device has no other reader), its complaint said once.  The source is
 * included so that its statics are reachable, as test_wzvm_glue.c does;
 * the threads are stand-ins, started by a stub of plugin_thread_create.
 */
#include "../../plugin/zvm/zvm_plugin.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include <cmocka.h>

#include "cd_stubs.h"

int plugin_register_complex_config(const char *type, int (*callback)(oconfig_item_t *))
{
        (void)type, (void)callback;
        return 0;
}
int plugin_register_init(const char *name, plugin_init_cb callback)
{
        (void)name, (void)callback;
        return 0;
}
int plugin_register_read(const char *name, int (*callback)(void))
{
        (void)name, (void)callback;
        return 0;
}
int plugin_register_shutdown(const char *name, plugin_shutdown_cb callback)
{
        (void)name, (void)callback;
        return 0;
}

/* What each plugin_thread_create does, in turn; past the plan, T_IDLE. */
enum { T_DIE, T_FAIL, T_IDLE };
static int plan[8];
static size_t nplan, creates;

/* A reader that died at once, as after an allocation failure. */
static void *die_at_once(void *arg)
{
        (void)arg;
        worker_exited = true;
        return NULL;
}

/* A reader that lives until shutdown. */
static void *idle_until_stopped(void *arg)
{
        (void)arg;
        while (!stop_flag)
                wait_ms(10);
        worker_exited = true;
        return NULL;
}

int plugin_thread_create(pthread_t *tid, void *(*start_routine)(void *), void *arg,
                         char const *name)
{
        (void)start_routine, (void)name;
        int what = creates < nplan ? plan[creates] : T_IDLE;
        creates++;
        if (what == T_FAIL)
                return EAGAIN;
        return pthread_create(tid, NULL, what == T_DIE ? die_at_once : idle_until_stopped, arg);
}

static void failed_restart_tried_again(void **state)
{
        (void)state;
        cd_reset();
        plan[0] = T_DIE, plan[1] = T_FAIL, plan[2] = T_FAIL, plan[3] = T_IDLE;
        nplan = 4;
        assert_int_equal(zvm_init(), 0);
        assert_int_equal(creates, 1);
        for (int i = 0; i < 5000 && !worker_exited; i++)
                usleep(1000);
        assert_true(worker_exited);
        assert_int_equal(zvm_read(), 0); /* joins the dead one; the restart fails */
        assert_int_equal(creates, 2);
        assert_false(worker_running);
        assert_non_null(strstr(cd_lastlog, "cannot restart the reader thread"));
        int logs = cd_nlog;
        assert_int_equal(zvm_read(), 0); /* tried again, and said no more */
        assert_int_equal(creates, 3);
        assert_false(worker_running);
        assert_int_equal(cd_nlog, logs);
        assert_int_equal(zvm_read(), 0); /* this one starts */
        assert_int_equal(creates, 4);
        assert_true(worker_running);
        assert_non_null(strstr(cd_lastlog, "the reader thread restarted"));
        assert_int_equal(zvm_read(), 0); /* a live reader is left alone */
        assert_int_equal(creates, 4);
        assert_int_equal(zvm_shutdown(), 0);
        assert_false(worker_running);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(failed_restart_tried_again),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
