/* SPDX-License-Identifier: MIT */
/*
 * What a metric is, apart from the engine's tables: its ids (keyed, so that a
 * guest cannot make two of its names one series), its names fitted to
 * collectd's fields, and its values.  Modules build metrics with these for
 * every value, so none of them takes a lock or allocates.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/hash.h"
#include "base/siphash.h"
#include "base/numtext.h"
#include "metric/met_module.h"

/* Name n, with its length first as zh_sip_str puts it, at b + at (the caller made room). */
static size_t put_name(uint8_t *b, size_t at, const char *n, size_t len)
{
        at += zh_sip_len(b + at, len);
        memcpy(b + at, n, len);
        return at + len;
}

/*
 * A consumer may take two metrics of one guest with equal ids as one series
 * without comparing their names (the plugin does, for every value; so does
 * met_wzvm.c's freshness check), so a guest must not be able to make two of
 * its names give one id.  The names are the guest's to choose: the id is
 * SipHash of them under the process's key (siphash.h), each name with its
 * length so that no two lists of names run together alike.  The chain of
 * zh_step it replaced could be made to collide without the key: about half
 * of the name pairs that differ by 0x40 in bytes 7, 11 and 15 did.
 */
uint64_t zm_metric_id(const struct zm_metric *m)
{
        const uint64_t *k = zh_secret_sip();
        const char *name[6] = {m->guest,           m->host, m->plugin,
                               m->plugin_instance, m->type, m->type_instance};
        size_t len[6], total = 4;
        for (int i = 0; i < 6; i++)
                total += 5 + (len[i] = strlen(name[i]));
        /* The names laid end to end and hashed in one go: put one by one, their bytes
         * went into SipHash's words a byte at a time. */
        uint8_t buf[6 * (5 + ZM_NAME_LEN) + 4];
        uint64_t h;
        if (total <= sizeof(buf)) {
                buf[0] = (uint8_t)m->scope;
                buf[1] = m->domain;
                buf[2] = (uint8_t)(m->record >> 8);
                buf[3] = (uint8_t)m->record;
                size_t at = 4;
                for (int i = 0; i < 6; i++)
                        at = put_name(buf, at, name[i], len[i]);
                h = zh_sip(k[0], k[1], buf, at);
        } else { /* longer names than any of ours: the same bytes, put one by one */
                struct zh_sip s;
                zh_sip_init(&s, k[0], k[1]);
                uint8_t srd[4] = {(uint8_t)m->scope, m->domain, (uint8_t)(m->record >> 8),
                                  (uint8_t)m->record};
                zh_sip_put(&s, srd, sizeof(srd));
                for (int i = 0; i < 6; i++)
                        zh_sip_str(&s, name[i]);
                h = zh_sip_final(&s);
        }
        h &= ~(uint64_t)1; /* even: zm_key_id's are odd */
        return h ? h : 2;
}

uint64_t zm_key_id(const struct zm_metric *m)
{
        /* A module's key is made of the decoder's own things (its tables' addresses,
           CP's entry numbers, a CPU number), never of a name a guest chose: keyed with
           zh_secret so that it cannot be aimed at a guest's names, the cheap steps are
           enough.  Odd, where zm_metric_id's are even, so that the two never name one
           series. */
        uint64_t srd = (uint64_t)m->scope << 24 | (uint64_t)m->domain << 16 | m->record;
        uint64_t h = zh_step(zh_secret() ^ srd, zh_word8(m->guest));
        return zh_mix(zh_step(h, m->key)) | 1;
}

uint64_t zm_series_id(const struct zm_metric *m)
{
        return m->key ? zm_key_id(m) : zm_metric_id(m);
}

void zm_name_fit(char *out, size_t outsz, const char *name, size_t len)
{
        if (len < outsz) {
                memcpy(out, name, len);
                out[len] = '\0';
                return;
        }
        const size_t tail = 1 + 16; /* "~" and the hash */
        if (outsz <= tail + 1) {
                if (outsz) {
                        memcpy(out, name, outsz - 1);
                        out[outsz - 1] = '\0';
                }
                return;
        }
        size_t keep = outsz - 1 - tail;
        memcpy(out, name, keep);
        snprintf(out + keep, outsz - keep, "~%016llx",
                 (unsigned long long)zh_bytes(ZH_SEED, name, len));
}

void zm_metric_init(struct zm_metric *m, enum zm_scope scope, const struct zd_record *r)
{
        /* Field by field: the value arrays are left alone (a value sets both of its
         * slots, and nvalues says how many are set), so starting a metric does
         * not clear them. */
        m->scope = scope;
        memset(m->guest, 0, sizeof(m->guest));
        m->host = m->plugin = m->plugin_instance = m->type = m->type_instance = "";
        m->nvalues = 0;
        m->tod = r ? r->tod : 0;
        m->domain = r ? r->domain : 0;
        m->record = r ? r->number : 0;
        m->check = NULL;
        m->id = 0;
        m->key = 0;
}

static size_t put_digits(char *out, size_t outsz, size_t o, const char *d, size_t n)
{
        while (n && o + 1 < outsz)
                out[o++] = d[--n];
        return o;
}

size_t zm_put_dec(char *out, size_t outsz, size_t o, unsigned v)
{
        char d[ZD_DEC_MAX];
        size_t n = zd_dec_u64(d, v);
        for (size_t i = 0; i < n && o + 1 < outsz; i++)
                out[o++] = d[i];
        return o;
}

size_t zm_put_hex4(char *out, size_t outsz, size_t o, unsigned v)
{
        static const char hex[] = "0123456789ABCDEF";
        char d[8];
        size_t n = 0;
        do
                d[n++] = hex[v & 15];
        while ((v >>= 4) != 0 || n < 4);
        return put_digits(out, outsz, o, d, n);
}

void zm_metric_name(struct zm_metric *m, const char *plugin, const char *pinst, const char *type,
                    const char *tinst)
{
        m->plugin = plugin ? plugin : "";
        m->plugin_instance = pinst ? pinst : "";
        m->type = type ? type : "";
        m->type_instance = tinst ? tinst : "";
}
