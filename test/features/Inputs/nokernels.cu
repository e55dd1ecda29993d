__device__ float helper(float x) { return x * x; }
int hostOnly(int a) { return a + 1; }
