/* explain fixture: `cc -O1 -g deep.c` and `cc -O1 -g -DEXTRA deep.c` differ only in helper(),
 * two calls below work(): main -> work -> step -> helper. */
static volatile unsigned sink;

__attribute__((noinline)) static unsigned helper(unsigned x) {
    unsigned acc = x;
    for (unsigned i = 0; i < 100; i++) {
        acc = acc * 31 + i;
    }
#ifdef EXTRA
    for (unsigned i = 0; i < 50; i++) {
        acc ^= (acc >> 3) ^ i;
    }
#endif
    return acc;
}

__attribute__((noinline)) static unsigned step(unsigned x) {
    return helper(x) + 1;
}

__attribute__((noinline)) static unsigned work(unsigned n) {
    unsigned total = 0;
    for (unsigned i = 0; i < n; i++) {
        total += step(i);
    }
    return total;
}

int main(void) {
    sink = work(1000);
    return 0;
}
