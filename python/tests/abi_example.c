/* A C program over libomnihsr, built and run by test_abi.py: the header
 * and the library's functions from C, with no Python in between.
 *
 *   abi_example FILE      prints what it did, one item a line
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "libomnihsr.h"

static void progress(int64_t done, int64_t total, void *user) {
	int64_t *calls = user;
	(*calls)++;
	if (done > total) {
		printf("bad progress %lld of %lld\n", (long long)done, (long long)total);
	}
}

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: abi_example FILE\n");
		return 2;
	}
	char *v = omnihsr_version();
	printf("version %s\n", v);
	omnihsr_free(v);

	enum { H = 4, W = 3, B = 2 };
	float in[H * W * B];
	for (int i = 0; i < H * W * B; i++) {
		in[i] = 1.0f + 0.25f * (float)i;
	}
	char *opts = "{\"scale\": 2, \"method\": \"bicubic\"}";
	int64_t oh = 0, ow = 0;
	int st = omnihsr_output_size(H, W, opts, &oh, &ow);
	printf("size %d %lld %lld\n", st, (long long)oh, (long long)ow);

	float *out = NULL;
	char *res = NULL;
	int64_t calls = 0;
	st = omnihsr_upscale(in, H, W, B, opts, NULL, 0, &out, &res, NULL, progress, &calls);
	printf("upscale %d progress %lld\n", st, (long long)calls);
	if (st != 0) {
		printf("error %s\n", omnihsr_last_error());
		return 1;
	}
	for (int64_t i = 0; i < oh * ow * B; i++) {
		printf("v %a\n", out[i]);
	}
	printf("result %s\n", res);
	omnihsr_free(out);
	omnihsr_free(res);

	st = omnihsr_upscale(in, H, W, B, "{\"scale\": -1}", NULL, 0, &out, NULL, NULL, NULL, NULL);
	printf("bad %d %s\n", st, omnihsr_last_error());

	int32_t cancel = 1;
	float buf[2 * H * 2 * W * B];
	st = omnihsr_upscale(in, H, W, B, opts, buf, 2 * H * 2 * W * B, NULL, NULL, &cancel, NULL, NULL);
	printf("cancelled %d\n", st);

	uintptr_t cube = 0;
	char *meta = NULL;
	st = omnihsr_read(argv[1], NULL, &cube, &meta);
	if (st != 0) {
		printf("read error %d %s\n", st, omnihsr_last_error());
		return 1;
	}
	printf("meta %s\n", meta);
	omnihsr_free(meta);
	float *data = malloc(sizeof(float) * 4 * 5 * 3);
	st = omnihsr_cube_copy(cube, data, 4 * 5 * 3);
	printf("copy %d first %a last %a\n", st, data[0], data[4 * 5 * 3 - 1]);
	omnihsr_cube_free(cube);
	st = omnihsr_cube_copy(cube, data, 4 * 5 * 3);
	printf("freed %d\n", st);
	free(data);

	st = omnihsr_read("/nonexistent/x.hdr", NULL, &cube, NULL);
	printf("missing %d %s\n", st, omnihsr_last_error());
	return 0;
}
