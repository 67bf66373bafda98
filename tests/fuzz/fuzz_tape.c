/* SPDX-License-Identifier: MIT */
/*
 * Any input as a VM/370 monitor tape of plain blocks, fed in two pieces (buffering across feeds),
 * then the same bytes as an AWSTAPE image. VM/370 records are also read through their layouts.
 */
#include "fuzz_common.h"
#include "source.h"
#include "vm370.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void hist_record(void *ctx, const struct zd_record *r)
{
	if (r->family != ZD_FAM_VM370) {
		fuzz_record(ctx, r);
		return;
	}
	for (size_t i = 0; i < r->rec.n; i++)
		fuzz_sink += r->rec.p[i];
	const struct zl_layout *l = zd_vm370_layout(r->domain, r->number, r->rec.n);
	if (l)
		zl_foreach(l, r->rec, fuzz_field, NULL);
	if (zd_vm370_code_name(r->domain, r->number))
		fuzz_sink++;
}

static const struct zd_handler hist_handler = {NULL, hist_record, fuzz_error, NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)fuzz_handler;
	struct zd_stream *s = zd_stream_new(ZD_FMT_TAPE, &hist_handler);
	if (!s)
		return 0;
	size_t half = size / 2;
	zd_stream_feed(s, data, half);
	zd_stream_feed(s, data + half, size - half);
	zd_stream_finish(s);
	zd_stream_free(s);
	s = zd_stream_new(ZD_FMT_AWSTAPE, &hist_handler);
	if (!s)
		return 0;
	zd_stream_feed(s, data, size);
	zd_stream_finish(s);
	zd_stream_free(s);
	return 0;
}
