/* decisions.c -- the MC/DC cross-check's decisions in C. decisions.plan and
   go/decisions.go compute the same, decision for decision, condition for
   condition, in the same order; labelcov's MC/DC of those must agree with
   clang-19's llvm-cov on this file under the same test suites. */
#include <stdio.h>
#include <stdlib.h>

static int sink;
static int use(int v) { sink += v; return v; }

int d1(int a, int b) { return a > 0 && b > 0; }
int d2(int a, int b, int c) { if ((a > 0 && b > 0) || c > 0) return 1; return 0; }
int d3(int a, int b, int c) { if (a > 0 && (b > 0 || c > 0)) return 1; return 0; }
int d4(int a, int b) { int x = a > b || b > 10; return x; }
int d5(int a, int b, int c) { return use(a > 0 && b < c); }
int d6(int a, int b, int c, int d) { if (!(a > b) && (c > 0 || d > 0)) return 1; return 0; }
int d7(int a, int b, int c) { int n = 0; while (a > n && (b > n || c > n) && n < 3) n = n + 1; return n; }
int d8(int a, int b, int c, int d) { if ((a > 0 || b > 0) && (c > 0 || d > 0)) return 1; return 0; }
int d9(int a, int b, int c, int d) { if (a == b || (c < d && a < c) || d == 0) return 1; return 0; }
int d10(int a, int b) { if (a > 0 && b > 0) { if (a > b || b > 100) return 2; return 1; } return 0; }
int d11(int a, int b, int c) { if (a > 0 && b > 0) return b > 5 || c > 0; return a < -5 && c < -5; }
int d12(int a, int b, int c, int d) { if (a > 0 && b > 0 && c > 0 && d > 0) return 1; return 0; }
int d13(int a, int b, int c, int d) { if (a > 0 || b > 0 || c > 0 || d > 0) return 1; return 0; }
int d14(int a, int b, int c) { int ok = (a + b > c) && !(c == 0) && !(a == b); return ok; }

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: decisions A B C D\n");
    return 2;
  }
  int a = atoi(argv[1]), b = atoi(argv[2]), c = atoi(argv[3]), d = atoi(argv[4]);
  int r = d1(a, b) + d2(a, b, c) + d3(a, b, c) + d4(a, b) + d5(a, b, c) + d6(a, b, c, d) + d7(a, b, c) +
          d8(a, b, c, d) + d9(a, b, c, d) + d10(a, b) + d11(a, b, c) + d12(a, b, c, d) + d13(a, b, c, d) + d14(a, b, c);
  printf("%d\n", r + sink);
  return 0;
}
