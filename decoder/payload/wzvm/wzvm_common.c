/* SPDX-License-Identifier: MIT */
/* write_zvm format: pieces both the encoder and the decoder need. */
#include <string.h>

#include "payload/wzvm/wzvm_format.h"

uint64_t wzvm_double_bits(double d)
{
        uint64_t u;
        memcpy(&u, &d, sizeof(u));
        return u;
}

double wzvm_bits_double(uint64_t u)
{
        double d;
        memcpy(&d, &u, sizeof(d));
        return d;
}

bool wzvm_name_ok(const char *s, size_t n, bool may_be_empty)
{
        if (n > WZVM_NAME_MAX || (n == 0 && !may_be_empty))
                return false;
        for (size_t i = 0; i < n; i++)
                if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7E || s[i] == '/')
                        return false;
        return true;
}

size_t wzvm_entry_size(const struct wzvm_entry *e)
{
        const char *names[] = {e->plugin, e->plugin_instance, e->type, e->type_instance,
                               e->ds_name};
        size_t n = WZVM_ENTRY_FIX;
        for (size_t i = 0; i < 5; i++) {
                size_t l = strnlen(names[i], WZVM_NAME_MAX + 1);
                /* plugin, type and ds_name are never empty in collectd */
                bool may_be_empty = i == 1 || i == 3;
                if (!wzvm_name_ok(names[i], l, may_be_empty))
                        return 0;
                n += 1 + l;
        }
        return n;
}

void wzvm_mwhdr_put(uint8_t out[WZVM_MW_HDR_LEN], const struct wzvm_mwhdr *h)
{
        zd_wbuf b = {out, WZVM_MW_HDR_LEN};
        zd_put8(b, 0, h->function);
        zd_put16(b, 1, h->applid);
        zd_put8(b, 3, h->record_num);
        zd_put16(b, 4, h->version);
        zd_put16(b, 6, h->release);
        zd_put16(b, 8, h->mod_level);
        zd_put16(b, 10, h->datalen);
        zd_put8(b, 12, h->hdrlen);
}

/* The checks monwriter makes on every header (doc/facts/kernel-drivers.md 2.3). */
const char *wzvm_mwhdr_invalid(const struct wzvm_mwhdr *h)
{
        if (h->hdrlen != WZVM_MW_HDR_LEN)
                return "hdrlen";
        if (h->function > WZVM_MW_CONFIG)
                return "mon_function";
        if (h->datalen > WZVM_MW_MAX_DATALEN)
                return "datalen";
        return NULL;
}
