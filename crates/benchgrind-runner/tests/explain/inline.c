/* explain fixture: `cc -O1 -g inline.c` calls mix() from caller(); with `-DINLINED` mix() is
 * inlined into caller() and no longer a function of its own. */
static volatile unsigned sink;

#ifdef INLINED
#define MIX static inline __attribute__((always_inline))
#else
#define MIX __attribute__((noinline)) static
#endif

MIX unsigned mix(unsigned a, unsigned b) {
    return (a ^ (b << 5)) * 2654435761u + (b >> 2);
}

__attribute__((noinline)) static unsigned caller(unsigned n) {
    unsigned h = 1;
    for (unsigned i = 0; i < n; i++) {
        h = mix(h, i);
    }
    return h;
}

int main(void) {
    sink = caller(1000);
    return 0;
}
