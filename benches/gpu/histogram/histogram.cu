// The same shared-memory histogram as kernels.py, idiomatic CUDA C++ (int indices).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void histogram(const float* x, int n, int* bins) {
    __shared__ int h[256];
    int t = threadIdx.x;
    h[t] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) {
        int b = (int)(x[i] * 256.0f);
        if (b > 255) b = 255;
        atomicAdd(&h[b], 1);
    }
    __syncthreads();
    atomicAdd(&bins[t], h[t]);
}

int main(int argc, char** argv) {
    int n = 1 << 26, grid = atoi(argv[1]), reps = 20;
    std::vector<float> hx(n);
    FILE* f = fopen(argv[2], "rb");
    fseek(f, 128, SEEK_SET);  // .npy header of np.save for a 1-D float32 array
    if (fread(hx.data(), 4, n, f) != (size_t)n) { printf("short read\n"); return 1; }
    fclose(f);
    float* dx; int* db;
    CK(cudaMalloc(&dx, 4L * n)); CK(cudaMalloc(&db, 256 * 4));
    CK(cudaMemcpy(dx, hx.data(), 4L * n, cudaMemcpyHostToDevice));
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    std::vector<float> ts;
    for (int r = 0; r < reps + 3; r++) {
        CK(cudaMemset(db, 0, 256 * 4));
        cudaEventRecord(a);
        histogram<<<grid, 256>>>(dx, n, db);
        cudaEventRecord(b);
        CK(cudaEventSynchronize(b));
        float ms; cudaEventElapsedTime(&ms, a, b);
        if (r >= 3) ts.push_back(ms);
    }
    std::vector<int> hb(256);
    CK(cudaMemcpy(hb.data(), db, 256 * 4, cudaMemcpyDeviceToHost));
    long total = 0; for (int v : hb) total += v;
    std::sort(ts.begin(), ts.end());
    printf("{\"impl\": \"cuda_cpp\", \"median_ms\": %.5f, \"total\": %ld, \"bin0\": %d}\n", (ts[9] + ts[10]) / 2, total, hb[0]);
    return 0;
}
