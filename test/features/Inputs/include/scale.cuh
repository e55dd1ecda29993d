#ifndef SCALE
#error "SCALE must come from the compile command"
#endif
#define SCALED(x) ((x) * SCALE)
