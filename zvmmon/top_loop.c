/* SPDX-License-Identifier: MIT */
/*
 * The full-screen loop: read input, pace a replay (--speed: the intervals'
 * own spacing divided by the speed), step or pause it, and answer keys.  A
 * live device shows each interval as it arrives; after a pause it jumps to
 * the newest.
 */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "top.h"

struct loop {
        struct top_src *src;
        struct top_model *t;
        struct top_opts *o;
        struct top_frame *cur, *next;
        bool paused, help, ended, failed, quit, dirty;
        unsigned steps;  /* n pressed: intervals still to show, however fast the keys came */
        double shown_at; /* when cur went up */
        double msg_at;   /* when msg went up, and how grave it is (syslog level) */
        int msg_level;
        unsigned long shown;
        char status[48], msg[600];
};

static double now(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Read until a frame is waiting, the device has nothing more, or a slice is used up. */
static void fill(struct loop *l)
{
        for (int i = 0; i < 64 && !l->ended && !top_model_pending(l->t); i++) {
                enum top_pump r = top_src_pump(l->src);
                if (r == TOP_SRC_WAIT)
                        break;
                if (r == TOP_SRC_END || r == TOP_SRC_FAIL) {
                        l->ended = true;
                        l->failed = r == TOP_SRC_FAIL;
                }
        }
        if (!l->next)
                l->next = top_model_pop(l->t);
}

static double due(const struct loop *l)
{
        if (!l->cur || top_src_is_device(l->src) || l->o->speed <= 0)
                return 0;
        return l->shown_at + top_gap(l->cur->tod, l->next) / l->o->speed;
}

static void advance(struct loop *l)
{
        if (!l->next || (l->cur && !l->steps && (l->paused || now() < due(l))))
                return;
        if (l->o->max_frames && l->shown >= l->o->max_frames) /* -n N: the Nth stays up */
                return;
        /* Live: after a pause show the newest interval, not the backlog. */
        while (top_src_is_device(l->src) && top_model_pending(l->t)) {
                top_frame_free(l->next);
                l->next = top_model_pop(l->t);
        }
        if (l->cur && l->steps) /* the first interval goes up without a step */
                l->steps--;
        top_frame_free(l->cur);
        l->cur = l->next;
        l->next = NULL;
        l->shown_at = now();
        l->shown++;
        l->dirty = true;
}

static void filter(struct loop *l)
{
        char buf[sizeof(l->o->glob[0])], prompt[64];
        snprintf(prompt, sizeof(prompt), "%s glob (empty: all): ", top_screens[l->o->scr].keyname);
        if (top_view_prompt(prompt, buf, sizeof(buf))) {
                snprintf(l->o->glob[l->o->scr], sizeof(buf), "%s", buf);
                l->o->first[l->o->scr] = 0;
        }
}

/* Keys that move the table (arrows, pages, ends) or change the screen; false if k is none. */
static bool move(struct loop *l, int k)
{
        size_t *first = &l->o->first[l->o->scr];
        long page = top_view_page();
        long far = 1L << 30; /* past either end: top_view_draw brings it back in range */
        long by = k == TOP_KEY_UP     ? -1
                  : k == TOP_KEY_DOWN ? 1
                  : k == TOP_KEY_PGUP ? -page
                  : k == TOP_KEY_PGDN ? page
                  : k == TOP_KEY_HOME ? -far
                  : k == TOP_KEY_END  ? far
                                      : 0;
        char name[2] = {(char)(k >= '1' && k <= '9' ? k : 0), 0};
        int scr = top_scr_by_name(name);
        if (by)
                *first = top_scroll(*first, by, (size_t)far, 0);
        else if (k == TOP_KEY_LEFT || k == TOP_KEY_RIGHT)
                l->o->scr = (l->o->scr + (k == TOP_KEY_LEFT ? TOP_NSCR - 1 : 1)) % TOP_NSCR;
        else if (scr >= 0 && scr < TOP_NSCR)
                l->o->scr = scr;
        else
                return false;
        return true;
}

static void key(struct loop *l, int k)
{
        int col = top_col_by_key(l->o->scr, k);
        l->dirty = true;
        if (l->help) {
                l->help = false;
                return;
        }
        if (k == 'q' || k == 'Q')
                l->quit = true;
        else if (k == ' ')
                l->paused = !l->paused;
        else if (k == 'n' || k == '\n') {
                l->steps++;
                l->paused = true;
        } else if (k == 'h' || k == '?')
                l->help = true;
        else if (k == '/')
                filter(l);
        else if (k == 'R')
                l->o->reverse = !l->o->reverse;
        else if (col >= 0)
                l->o->sort[l->o->scr] = col;
        else
                move(l, k);
}

/*
 * The newest message goes to the bottom line, with the interval it came in,
 * unless a graver one went up less than 10 s ago: a severed path is not to be
 * hidden by the next interval's news of a law.
 */
static void take_notes(struct loop *l)
{
        struct top_note n;
        while (top_model_take_note(l->t, UINT64_MAX, &n)) {
                if (l->msg[0] && n.level > l->msg_level && now() - l->msg_at < 10)
                        continue;
                snprintf(l->msg, sizeof(l->msg), "interval %llu: %s",
                         (unsigned long long)n.interval, n.text);
                l->msg_level = n.level;
                l->msg_at = now();
                l->dirty = true;
        }
}

static void draw(struct loop *l)
{
        if (l->failed)
                snprintf(l->status, sizeof(l->status), "input failed");
        else if (l->ended && !l->next)
                snprintf(l->status, sizeof(l->status), "end of input");
        else if (l->paused)
                snprintf(l->status, sizeof(l->status), "paused");
        else if (top_src_is_device(l->src))
                snprintf(l->status, sizeof(l->status), "live");
        else
                snprintf(l->status, sizeof(l->status), "replay x%g", l->o->speed);
        /* The device's errors (each also said on the bottom line) and the decoder's. */
        uint64_t errs = top_src_errors(l->src);
        size_t len = strlen(l->status);
        if (errs)
                snprintf(l->status + len, sizeof(l->status) - len, ", %llu input error%s",
                         (unsigned long long)errs, errs == 1 ? "" : "s");
        struct top_screen s = {
            l->cur, top_sort_of(l->o, l->o->scr), &l->o->first[l->o->scr], l->status, l->msg,
            l->help};
        top_view_draw(&s);
        l->dirty = false;
}

/* Sleep until a key, the device, or the next frame is due (at most a second). */
static void wait_input(struct loop *l)
{
        int ms = 1000;
        if (l->next && !l->paused)
                ms = (int)((due(l) - now()) * 1000) + 1;
        else if (!l->next && !l->ended && !top_src_is_device(l->src))
                ms = 0;
        if (l->steps && l->next)
                ms = 0;
        ms = ms < 0 ? 0 : ms > 1000 ? 1000 : ms;
        struct pollfd p[2] = {{STDIN_FILENO, POLLIN, 0}, {top_src_fd(l->src), POLLIN, 0}};
        poll(p, p[1].fd >= 0 ? 2 : 1, ms);
}

int top_loop(struct top_src *src, struct top_model *t, struct top_opts *o)
{
        struct loop l = {.src = src, .t = t, .o = o, .paused = o->step, .dirty = true};
        const struct top_frame *last = NULL; /* -n N: the Nth interval, left on the terminal */
        if (!top_view_open())
                return 2;
        while (!l.quit) {
                fill(&l);
                advance(&l);
                take_notes(&l);
                if (l.dirty)
                        draw(&l);
                if (o->max_frames && l.shown >= o->max_frames && !l.paused) {
                        last = l.cur;
                        break;
                }
                wait_input(&l);
                for (int k; (k = top_view_key()) >= 0;)
                        key(&l, k);
        }
        top_view_close();
        if (l.failed && l.msg[0]) /* the reason was on the screen, now gone */
                fprintf(stderr, "zvmmon top: %s\n", l.msg);
        /*
         * top(1) -n N ends right after its Nth frame, which stays on the
         * terminal: it draws on the normal screen.  Ours is the alternate
         * screen, gone at endwin(): the Nth interval is printed where it stays.
         */
        if (last) {
                struct top_batch *b = top_batch_new(stdout, false, o);
                if (b)
                        top_batch_frame(b, last);
                top_batch_free(b);
        }
        top_frame_free(l.cur);
        top_frame_free(l.next);
        return l.failed ? 2 : 0;
}
