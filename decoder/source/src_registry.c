/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "source/source.h"

extern const struct zd_source_ops zd_src_capture, zd_src_monwrite, zd_src_dataset;
extern const struct zd_source_ops zd_src_awstape, zd_src_tape, zd_src_vb, zd_src_monwriter;

/* Detection order matters only for ties: the more specific format first. */
/* clang-format off */
const struct zd_source_ops *const zd_sources[] = {
    &zd_src_capture,
    &zd_src_monwrite,
    &zd_src_dataset,
    &zd_src_awstape,
    &zd_src_tape,
    &zd_src_vb,
    &zd_src_monwriter,
    NULL,
};
/* clang-format on */

const struct zd_source_ops *zd_source_by_fmt(enum zd_format fmt)
{
        for (size_t i = 0; zd_sources[i]; i++)
                if (zd_sources[i]->fmt == fmt)
                        return zd_sources[i];
        return NULL;
}

const struct zd_source_ops *zd_source_by_name(const char *name)
{
        for (size_t i = 0; zd_sources[i]; i++)
                if (strcmp(zd_sources[i]->name, name) == 0)
                        return zd_sources[i];
        return NULL;
}

const struct zd_source_ops *zd_source_detect(zd_view head)
{
        const struct zd_source_ops *best = NULL;
        int best_score = 0;
        for (size_t i = 0; zd_sources[i]; i++) {
                int score = zd_sources[i]->detect(head);
                if (score > best_score) {
                        best = zd_sources[i];
                        best_score = score;
                }
        }
        return best;
}
