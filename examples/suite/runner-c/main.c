/* A runner program in C for the memmem suite.
 *
 * Reads KLV ("key:len:value\n") from stdin, runs the `iter` model with libc's memmem and prints
 * one "nanoseconds,count" line per iteration. Usage: runner (c/memmem | --version)
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct config {
    const char *model;
    size_t model_len;
    const char *needle;
    size_t needle_len;
    int patterns;
    const char *hay;
    size_t hay_len;
    uint64_t max_iters, max_warmup_iters, max_time, max_warmup_time;
};

static void die(const char *msg, const char *key) {
    fprintf(stderr, "runner-c: %s%s%s\n", msg, key ? " for key " : "", key ? key : "");
    exit(1);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static char *read_all(size_t *len) {
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    if (!buf) die("out of memory", NULL);
    while ((got = fread(buf + n, 1, cap - n, stdin)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) die("out of memory", NULL);
        }
    }
    *len = n;
    return buf;
}

static uint64_t number(const char *v, size_t n, const char *key) {
    uint64_t x = 0;
    if (n == 0) die("empty number", key);
    for (size_t i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9') die("not a number", key);
        uint64_t digit = (uint64_t)(v[i] - '0');
        if (x > (UINT64_MAX - digit) / 10) die("number past 2^64", key);
        x = x * 10 + digit;
    }
    return x;
}

static void parse(const char *p, size_t len, struct config *c) {
    const char *end = p + len;
    while (p < end) {
        const char *k = memchr(p, ':', (size_t)(end - p));
        if (!k) die("KLV: missing ':' after the key", NULL);
        char key[64];
        size_t klen = (size_t)(k - p) < sizeof key - 1 ? (size_t)(k - p) : sizeof key - 1;
        memcpy(key, p, klen);
        key[klen] = 0;
        const char *l = memchr(k + 1, ':', (size_t)(end - k - 1));
        if (!l) die("KLV: missing ':' after the length", key);
        size_t n = (size_t)number(k + 1, (size_t)(l - k - 1), key);
        const char *v = l + 1;
        if ((size_t)(end - v) <= n || v[n] != '\n') die("KLV: bad value length", key);
        if (!strcmp(key, "model")) c->model = v, c->model_len = n;
        else if (!strcmp(key, "pattern")) c->needle = v, c->needle_len = n, c->patterns++;
        else if (!strcmp(key, "haystack")) c->hay = v, c->hay_len = n;
        else if (!strcmp(key, "max-iters")) c->max_iters = number(v, n, key);
        else if (!strcmp(key, "max-warmup-iters")) c->max_warmup_iters = number(v, n, key);
        else if (!strcmp(key, "max-time")) c->max_time = number(v, n, key);
        else if (!strcmp(key, "max-warmup-time")) c->max_warmup_time = number(v, n, key);
        p = v + n + 1;
    }
}

/* Writes n as 20 zero-padded digits. It costs the same instructions whatever the value, so
 * under `benchgrind suite measure --metric instructions` the count of an iteration does not
 * depend on how long the iteration took (printf's cost varies with the number of digits). */
static void put_fixed(uint64_t n) {
    char buf[20];
    for (int i = 19; i >= 0; i--) {
        buf[i] = (char)('0' + n % 10);
        n /= 10;
    }
    fwrite(buf, 1, sizeof buf, stdout);
}

static uint64_t count_all(const struct config *c) {
    uint64_t count = 0;
    const char *h = c->hay;
    size_t left = c->hay_len, step = c->needle_len ? c->needle_len : 1;
    const char *m;
    while ((m = memmem(h, left, c->needle, c->needle_len)) != NULL) {
        count++;
        size_t skip = (size_t)(m - h) + step;
        if (skip > left) break;
        h += skip;
        left -= skip;
    }
    return count;
}

int main(int argc, char **argv) {
    if (argc != 2) die("usage: runner (<engine> | --version)", NULL);
    if (!strcmp(argv[1], "--version")) {
        puts("0.1.0");
        return 0;
    }
    size_t len;
    char *raw = read_all(&len);
    struct config c = {0};
    parse(raw, len, &c);
    if (strcmp(argv[1], "c/memmem") || c.model_len != 4 || memcmp(c.model, "iter", 4))
        die("unrecognized engine or model", argv[1]);
    if (c.patterns != 1 || !c.hay) die("need exactly one pattern and a haystack", NULL);

    uint64_t start = now_ns();
    for (uint64_t i = 0; i < c.max_warmup_iters; i++) {
        count_all(&c);
        if (now_ns() - start >= c.max_warmup_time) break;
    }
    start = now_ns();
    for (uint64_t i = 0; i < c.max_iters; i++) {
        uint64_t t = now_ns();
        uint64_t count = count_all(&c);
        put_fixed(now_ns() - t);
        printf(",%llu\n", (unsigned long long)count);
        if (now_ns() - start >= c.max_time) break;
    }
    free(raw);
    return 0;
}
