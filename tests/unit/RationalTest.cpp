// Exact arithmetic under unit conversion: the checker's promise that
// 60nsec at 50MHz is exactly 3 clocks rests on these.
#include "compiler/support/Rational.h"

#include <gtest/gtest.h>

namespace ndl {
namespace {

TEST(RationalTest, ParsesDecimalsExactly) {
  EXPECT_EQ(*Rational::parse("1.0"), Rational(1));
  EXPECT_EQ(*Rational::parse("2.5"), *Rational::make(5, 2));
  EXPECT_EQ(*Rational::parse("-0.125"), *Rational::make(-1, 8));
  EXPECT_EQ(*Rational::parse("2.5e-3"), *Rational::make(1, 400));
  EXPECT_EQ(*Rational::parse("1e9"), Rational(1000000000));
  EXPECT_EQ(*Rational::parse("0x1F"), Rational(31));
}

TEST(RationalTest, RejectsWhatDoesNotFit) {
  EXPECT_FALSE(Rational::parse("9223372036854775808"));  // 2^63
  EXPECT_TRUE(Rational::parse("9223372036854775807"));
  EXPECT_FALSE(Rational::parse("1e40"));
  EXPECT_FALSE(Rational::parse("0.0000000000000000000000000001"));
}

TEST(RationalTest, UnitConversionsAreExact) {
  Rational nsec = *Rational::make(1, 1000000000);
  Rational sixtyNs = *Rational(60).mul(nsec);
  Rational clocks = *sixtyNs.mul(50000000);
  EXPECT_TRUE(clocks.isInteger());
  EXPECT_EQ(clocks, Rational(3));
  // 50nsec at 50MHz is 2.5 clocks: not whole, rounds up to 3.
  Rational half = *Rational(50).mul(nsec)->mul(50000000);
  EXPECT_FALSE(half.isInteger());
  EXPECT_EQ(half.ceil(), 3);
  EXPECT_EQ(half.floor(), 2);
}

TEST(RationalTest, ReportsOverflow) {
  Rational big(std::numeric_limits<int64_t>::max());
  EXPECT_FALSE(big.add(1));
  EXPECT_FALSE(big.mul(2));
  EXPECT_FALSE(Rational(1).div(0));
}

TEST(RationalTest, PrintsDecimalsWhenExact) {
  EXPECT_EQ(Rational::make(5, 2)->str(), "2.5");
  EXPECT_EQ(Rational::make(1, 100)->str(), "0.01");
  EXPECT_EQ(Rational::make(-3, 8)->str(), "-0.375");
  EXPECT_EQ(Rational::make(200, 3)->str(), "66.6667");
  EXPECT_EQ(Rational(42).str(), "42");
}

TEST(RationalTest, FloorAndCeilOfNegatives) {
  EXPECT_EQ(Rational::make(-5, 2)->floor(), -3);
  EXPECT_EQ(Rational::make(-5, 2)->ceil(), -2);
}

}  // namespace
}  // namespace ndl
