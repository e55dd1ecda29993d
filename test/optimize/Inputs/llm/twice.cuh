// A helper the kernel of twice.cu calls.
#pragma once
template <class T> __device__ T twice(T x) { return x * T(2); }
