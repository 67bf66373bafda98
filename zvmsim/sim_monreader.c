/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "sim_monreader.h"

void sim_mr_init(struct sim_mr *m, unsigned msglim)
{
        memset(m, 0, sizeof(*m));
        m->msglim = msglim ? msglim : SIM_MR_MSGLIM;
        m->q = calloc(m->msglim, sizeof(*m->q));
        m->limflag = calloc(m->msglim, sizeof(*m->limflag));
        if (!m->q || !m->limflag)
                abort();
}

static void fate(struct sim_mr *m, const struct sim_set *s, const char *what, size_t done)
{
        if (m->fate)
                m->fate(m->fate_ctx, s, what, done);
}

static void drop_all(struct sim_mr *m, const char *why)
{
        bool first = true;
        while (m->nq) {
                fate(m, m->q[m->head], why, first ? m->pos : 0);
                first = false;
                sim_set_free(m->q[m->head]);
                m->q[m->head] = NULL;
                m->head = (m->head + 1) % m->msglim;
                m->nq--;
        }
        m->pos = 0;
        m->looked = false;
        m->overflow_pending = false;
}

void sim_mr_fini(struct sim_mr *m)
{
        drop_all(m, "close");
        free(m->q);
        free(m->limflag);
}

int sim_mr_open(struct sim_mr *m)
{
        if (m->open)
                return -EBUSY;
        if (m->open_fails) {
                /* Nothing was connected: no configuration set, the device stays free. */
                m->open_fails--;
                m->open_eios++;
                return -EIO;
        }
        m->open = true;
        m->severed = false;
        m->efault = m->eio = SIM_MR_OFF;
        drop_all(m, "close");
        return 0;
}

void sim_mr_close(struct sim_mr *m)
{
        m->open = false;
        m->severed = false;
        m->efault = m->eio = m->empty = m->cut = SIM_MR_OFF;
        drop_all(m, "close");
}

void sim_mr_sever(struct sim_mr *m)
{
        if (!m->open)
                return;
        m->severed = true;
        drop_all(m, "sever");
}

bool sim_mr_push(struct sim_mr *m, struct sim_set *s)
{
        /* Messages count against the limit from the moment the path exists. */
        if (!m->open || m->severed || m->nq >= m->msglim) {
                if (m->open && !m->severed)
                        m->dropped++;
                fate(m, s, !m->open ? "no-reader" : m->severed ? "severed" : "queue-full", 0);
                sim_set_free(s);
                return false;
        }
        size_t slot = (m->head + m->nq) % m->msglim;
        m->q[slot] = s;
        m->limflag[slot] = m->nq + 1 == m->msglim;
        m->nq++;
        return true;
}

/*
 * Whether an armed failure meets the set at the head of the queue.  "Sample"
 * lets event sets pass: a test that must hit a sample interval would otherwise
 * hit whichever set came first, and events come when the system has them.
 */
static bool meets(const struct sim_mr *m, enum sim_mr_arm a)
{
        return a == SIM_MR_ANY || (a == SIM_MR_SAMPLE && m->q[m->head]->type == 'S');
}

/*
 * The driver checks the control area and the current MCE at every read
 * (mon_check_mca) and replies at once when they fail: a bad area ends the
 * set before its first byte, a bad last MCE right after the range before it.
 * zvmsim decides at the set's first read, where an armed "empty" or "cut" meets it.
 */
static void first_look(struct sim_mr *m)
{
        const struct sim_set *s = m->q[m->head];
        m->looked = true;
        m->stop = s->len;
        m->stop_why = NULL;
        if (meets(m, m->empty)) {
                m->empty = SIM_MR_OFF;
                m->stop = 0;
                m->stop_why = "empty";
        } else if (meets(m, m->cut)) {
                m->cut = SIM_MR_OFF;
                /* A set of one MCE has nothing before the bad one: it comes empty. */
                m->stop = s->nmce > 1 ? s->mce_off[s->nmce - 1] : 0;
                m->stop_why = "cut";
        }
}

/* All MCEs consumed (or the checks failed): reply to the message, report the end of the set. */
static ssize_t reply(struct sim_mr *m)
{
        struct sim_set *s = m->q[m->head];
        if (m->limflag[m->head])
                m->overflow_pending = true;
        fate(m, s, m->stop_why ? m->stop_why : "delivered", m->pos);
        if (m->stop_why)
                m->cut_sets++;
        else
                m->delivered++;
        sim_set_free(s);
        m->q[m->head] = NULL;
        m->head = (m->head + 1) % m->msglim;
        m->nq--;
        m->pos = 0;
        m->looked = false;
        return 0;
}

ssize_t sim_mr_read(struct sim_mr *m, uint8_t *buf, size_t size, bool nonblock)
{
        m->reads++;
        if (m->severed)
                return -EIO;
        /* The driver reports a pending EOVERFLOW before it looks at any data. */
        if (m->overflow_pending) {
                m->overflow_pending = false;
                m->overflows++;
                return -EOVERFLOW;
        }
        if (m->nq && !m->looked)
                first_look(m);
        /*
         * copy_to_user fails only on a read that copies: with a set queued and
         * bytes of it left (the read after its last bytes replies and copies nothing).
         */
        if (m->nq && m->pos < m->stop && meets(m, m->efault)) {
                /* Nothing advances; the set read so far is invalid. */
                m->efault = SIM_MR_OFF;
                fate(m, m->q[m->head], "efault", m->pos);
                return -EFAULT;
        }
        if (m->nq && m->pos > 0 && meets(m, m->eio)) {
                /* The path is severed while the reader is inside a set. */
                m->eio = SIM_MR_OFF;
                m->severed = true;
                drop_all(m, "eio");
                return -EIO;
        }
        if (!m->nq)
                return nonblock ? -EAGAIN : SIM_MR_WAIT;
        struct sim_set *s = m->q[m->head];
        if (m->pos >= m->stop)
                return reply(m);
        size_t end = s->len;
        for (size_t i = 0; i < s->nends; i++)
                if (s->ends[i] > m->pos) {
                        end = s->ends[i];
                        break;
                }
        size_t n = end - m->pos < size ? end - m->pos : size;
        memcpy(buf, s->buf + m->pos, n);
        m->pos += n;
        return (ssize_t)n;
}

/* A pending EOVERFLOW is data to read: the driver counts its message until that read. */
unsigned sim_mr_poll(const struct sim_mr *m)
{
        if (m->severed)
                return POLLERR;
        return m->nq || m->overflow_pending ? POLLIN | POLLRDNORM : 0;
}
