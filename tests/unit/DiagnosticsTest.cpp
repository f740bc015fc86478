// The diagnostics engine: rendering, caps, -Werror, suggestions.
#include "compiler/support/Diagnostics.h"

#include <gtest/gtest.h>

#include <sstream>

#include "compiler/support/EditDistance.h"

namespace ndl {
namespace {

TEST(DiagnosticsTest, PrintsLocationLineCaretAndHint) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.ndl", "", "(A 1)\n(NetworkFrequency 32bit)\n");
  DiagnosticEngine diags(sm);
  diags.report(DiagKind::WrongDimension, {f, 2, 19, 2, 24}, "bad").withHint("fix it");
  std::ostringstream out;
  diags.printText(out);
  EXPECT_EQ(out.str(),
            "a.ndl:2:19: error: bad [wrong-dimension]\n"
            "(NetworkFrequency 32bit)\n"
            "                  ^~~~~\n"
            "hint: fix it\n"
            "1 error, 0 warnings\n");
}

TEST(DiagnosticsTest, CaretCountsCodePointsNotBytes) {
  SourceManager sm;
  // "é" is two bytes but one column.
  FileId f = sm.addBuffer("a.ndl", "", "(\xC3\xA9 x)\n");
  DiagnosticEngine diags(sm);
  diags.report(DiagKind::UnknownForm, {f, 1, 4, 1, 5}, "m");
  std::ostringstream out;
  diags.printText(out);
  EXPECT_NE(out.str().find("\n   ^\n"), std::string::npos) << out.str();
}

TEST(DiagnosticsTest, NotesFollowTheirDiagnostic) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.ndl", "", "(X 1)\n(X 2)\n");
  DiagnosticEngine diags(sm);
  diags.report(DiagKind::DuplicateForm, {f, 2, 2, 2, 3}, "X is given twice")
      .note({f, 1, 1, 1, 6}, "first given here");
  std::ostringstream out;
  diags.printText(out);
  EXPECT_NE(out.str().find("a.ndl:1:1: note: first given here\n(X 1)\n^~~~~\n"),
            std::string::npos)
      << out.str();
}

TEST(DiagnosticsTest, CapStopsAfterMaxErrors) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.ndl", "", "x\n");
  DiagnosticEngine diags(sm, DiagOptions{false, 3});
  for (int i = 0; i < 10; ++i) diags.report(DiagKind::ExpectedForm, {f, 1, 1, 1, 2}, "e");
  EXPECT_TRUE(diags.capped());
  ASSERT_EQ(diags.diagnostics().size(), 4u);
  EXPECT_EQ(diags.diagnostics().back().kind, DiagKind::TooManyErrors);
}

TEST(DiagnosticsTest, WerrorPromotesWarnings) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.ndl", "", "x\n");
  DiagnosticEngine plain(sm);
  plain.report(DiagKind::InexactClocks, {f, 1, 1, 1, 2}, "w");
  EXPECT_FALSE(plain.hasErrors());
  EXPECT_EQ(plain.warningCount(), 1u);
  DiagnosticEngine strict(sm, DiagOptions{true, 20});
  strict.report(DiagKind::InexactClocks, {f, 1, 1, 1, 2}, "w");
  EXPECT_TRUE(strict.hasErrors());
}

TEST(DiagnosticsTest, JsonCarriesKindAndPosition) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.ndl", "", "(X)\n");
  DiagnosticEngine diags(sm);
  diags.report(DiagKind::UnknownForm, {f, 1, 2, 1, 3}, "unknown form 'X'").withHint("h");
  std::ostringstream out;
  diags.printJson(out);
  EXPECT_NE(out.str().find("\"kind\": \"unknown-form\""), std::string::npos);
  EXPECT_NE(out.str().find("\"line\": 1"), std::string::npos);
  EXPECT_NE(out.str().find("\"column\": 2"), std::string::npos);
}

TEST(EditDistanceTest, SuggestsCloseNamesOnly) {
  std::vector<std::string_view> forms = {"NetworkFrequency", "NetworkChannelWidth", "Seed"};
  EXPECT_EQ(closestMatch("NetworkFrequncy", forms), "NetworkFrequency");
  EXPECT_EQ(closestMatch("networkfrequency", forms), "NetworkFrequency");
  EXPECT_EQ(closestMatch("Banana", forms), "");
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
}

}  // namespace
}  // namespace ndl
