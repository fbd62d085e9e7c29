# expect-error: unsupported statement at module level (driver code outside `if __name__ == "__main__":`)
from numba import njit


@njit
def double(x):
    return 2.0 * x


print(double(3.0))  # <-- here
