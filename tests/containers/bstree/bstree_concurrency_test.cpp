// Placeholder replaced below.
#include <gtest/gtest.h>
TEST(BSTreeConcurrency, Placeholder) {}
