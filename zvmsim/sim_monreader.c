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
        m->efault = m->eio = SIM_MR_OFF;
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
        /*
         * copy_to_user fails only on a read that copies: with a set queued and
         * bytes of it left (the read after its last bytes replies and copies nothing).
         */
        if (m->nq && m->pos < m->q[m->head]->len && meets(m, m->efault)) {
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
        if (m->pos >= s->len) {
                /* All MCEs consumed: reply to the message, report the end of the set. */
                if (m->limflag[m->head])
                        m->overflow_pending = true;
                fate(m, s, "delivered", m->pos);
                sim_set_free(s);
                m->q[m->head] = NULL;
                m->head = (m->head + 1) % m->msglim;
                m->nq--;
                m->pos = 0;
                m->delivered++;
                return 0;
        }
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
