// Bad input for both readers, plain and gzip: each case must throw wg::ParseError naming the file
// and the line of the problem ("FILE:LINE: problem").
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/read_graph.hpp>

#include "temp_files.hpp"

namespace {

using wg::datasets::read_graph;
using wg::datasets::ReadOptions;

struct BadCase {
  const char* label;
  std::string_view text;  // may hold NUL bytes
  std::uint64_t line;     // 0: the message names no line
  const char* needle;     // part of the problem text
};

/// Runs a case on a plain file and on the same file gzip-compressed.
void expect_error(const BadCase& c, const char* suffix, const ReadOptions& options = {}) {
  SCOPED_TRACE(c.label);
  wg::test::expect_parse_error_plain_and_gz(std::string("bad") + suffix, c.text, c.line, c.needle,
                                            [&](const std::string& p) { read_graph(p, options); });
}

const char* kPatternGeneral = "%%MatrixMarket matrix coordinate pattern general\n";

// Empty and blank files fail alike in every format.
TEST(ReadErrors, EmptyOrBlankFile) {
  for (const char* suffix : {".mtx", ".mm", ".txt"})
    for (const char* text : {"", "\n  \n\t\n", " \n\n"})
      expect_error({"empty or blank", text, 0, "empty file"}, suffix);
}

TEST(MatrixMarketErrors, HeaderAndSizeLine) {
  const BadCase cases[] = {
      {"no header", "3 3 1\n1 2\n", 1, "missing '%%MatrixMarket' header"},
      {"comment instead of header", "% a comment\n3 3 1\n1 2\n", 1, "missing '%%MatrixMarket'"},
      {"three words", "%%MatrixMarket matrix coordinate pattern\n3 3 0\n", 1, "expected 4 words"},
      {"five words", "%%MatrixMarket matrix coordinate pattern general extra\n3 3 0\n", 1,
       "expected 4 words"},
      {"glued banner", "%%MatrixMarketmatrix coordinate pattern general\n3 3 0\n", 1,
       "space after"},
      {"array", "%%MatrixMarket matrix array real general\n3 3\n1.0\n", 1,
       "unsupported format 'array'"},
      {"complex", "%%MatrixMarket matrix coordinate complex general\n3 3 1\n1 1 1 0\n", 1,
       "unsupported field 'complex'"},
      {"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n3 3 1\n1 1 1\n", 1,
       "unsupported symmetry 'hermitian'"},
      {"vector object", "%%MatrixMarket vector coordinate real general\n3 1\n", 1,
       "unsupported object"},
      {"unknown field", "%%MatrixMarket matrix coordinate floaty general\n3 3 0\n", 1,
       "unknown field"},
      {"unknown symmetry", "%%MatrixMarket matrix coordinate real lower\n3 3 0\n", 1,
       "unknown symmetry"},
      {"no size line", "%%MatrixMarket matrix coordinate pattern general\n% c\n%\n", 3,
       "missing size line"},
      {"size not a number", "%%MatrixMarket matrix coordinate pattern general\n% c\n3 x 1\n", 3,
       "column count 'x' is not a valid number"},
      {"size missing field", "%%MatrixMarket matrix coordinate pattern general\n3 3\n1 2\n", 2,
       "missing entry count"},
      {"size trailing", "%%MatrixMarket matrix coordinate pattern general\n3 3 1 9\n1 2\n", 2,
       "unexpected text '9'"},
      {"size negative", "%%MatrixMarket matrix coordinate pattern general\n-3 3 1\n1 2\n", 2,
       "row count '-3' is not a valid number"},
      {"size overflow u64",
       "%%MatrixMarket matrix coordinate pattern general\n99999999999999999999 3 1\n1 2\n", 2,
       "out of range"},
      {"rows beyond the id limit",
       "%%MatrixMarket matrix coordinate pattern general\n2147483649 3 1\n1 2\n", 2,
       "exceed the vertex id limit"},
      {"rows beyond 32 bits",
       "%%MatrixMarket matrix coordinate pattern general\n4294967297 3 1\n1 2\n", 2,
       "exceed the vertex id limit"},
      {"control bytes escaped",
       "%%MatrixMarket matrix coordinate pat\x01\x7f\xfe general\n3 3 1\n1 2\n", 1,
       "unknown field 'pat\\x01\\x7F\\xFE'"},
      {"symmetric not square", "%%MatrixMarket matrix coordinate pattern symmetric\n3 4 1\n2 1\n",
       2, "must be square"},
  };
  for (const auto& c : cases) expect_error(c, ".mtx");
}

TEST(MatrixMarketErrors, Entries) {
  const BadCase cases[] = {
      {"row not a number", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\nx 2\n", 4,
       "row id 'x' is not a valid number"},
      {"integer value a double rounds",
       "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 1\n2 3 9223372036854775807\n",
       4, "'9223372036854775807' is an integer that a double cannot hold exactly"},
      {"lone CR line ends", "%%MatrixMarket matrix coordinate pattern general\r3 3 1\r1 2\r", 1,
       "classic Mac line ends"},
      {"column not a number", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2b\n", 3,
       "column id '2b' is not a valid number"},
      {"missing column", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1\n", 3,
       "missing column id"},
      {"pattern with value", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 5\n", 3,
       "unexpected text '5'"},
      {"real missing value", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.5\n2 3\n",
       4, "missing value"},
      {"real bad value", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1.5.5\n", 3,
       "value '1.5.5' is not a valid number"},
      {"real nan", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 nan\n", 3,
       "value 'nan'"},
      {"real trailing", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1.5 7\n", 3,
       "unexpected text '7'"},
      {"integer with fraction",
       "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1.5\n", 3,
       "value '1.5' is not a valid number"},
      {"row zero", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n0 2\n", 3,
       "row id 0 out of range 1..3"},
      {"row too large", "%%MatrixMarket matrix coordinate pattern general\n3 5 2\n1 2\n4 2\n", 4,
       "row id 4 out of range 1..3"},
      {"column too large", "%%MatrixMarket matrix coordinate pattern general\n5 3 1\n1 4\n", 3,
       "column id 4 out of range 1..3"},
      {"id overflow",
       "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n18446744073709551616 1\n", 3,
       "out of range"},
      {"negative id", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n-1 1\n", 3,
       "not a valid number"},
      {"skew diagonal",
       "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 1\n", 4,
       "diagonal entry"},
      {"too many entries",
       "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n% c\n2 3\n\n3 1\n1 1\n", 7,
       "more entries than the 2 declared on the size line (line 2)"},
      {"too few entries",
       "%%MatrixMarket matrix coordinate pattern general\n3 3 4\n1 2\n2 3\n% end\n", 5,
       "found 2 entries but the size line (line 2) declares 4"},
      {"no entries", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n", 2,
       "found 0 entries"},
  };
  for (const auto& c : cases) expect_error(c, ".mtx");
}

TEST(SnapErrors, All) {
  const BadCase cases[] = {
      {"comments only", "# a\n# b\n", 2, "no edges found"},
      {"source not a number", "# c\n0 1\nx 1\n", 3, "source id 'x' is not a valid number"},
      {"target not a number", "0 1\n1 y\n", 2, "target id 'y' is not a valid number"},
      {"missing target", "0 1\n7\n", 2, "missing target id"},
      {"negative id", "0 1\n-1 2\n", 2, "source id '-1' is not a valid number"},
      {"bad weight", "0 1 0.5\n1 2 abc\n", 2, "weight 'abc' is not a valid number"},
      {"trailing garbage", "0 1\t2\tx\n", 1, "unexpected text 'x'"},
      {"weight then none", "0 1 2.5\n1 2 1\n2 3\n", 3,
       "line has 2 fields but earlier edge lines have 3"},
      {"none then weight", "0 1\n# c\n1 2 1\n", 3,
       "line has 3 fields but earlier edge lines have 2"},
      {"id beyond 32 bits", "0 1\n4294967296 1\n", 2, "past the vertex id limit"},
      {"id at the limit", "0 1\n2147483648 1\n", 2, "past the vertex id limit"},
      // A NUL byte is found as the file is read (binary data), before the fields are parsed.
      {"NUL byte escaped",
       std::string_view("0 1\n1 \0"
                        "2\n",
                        9),
       2, "NUL byte at byte offset 6: binary data, not a text file (the line starts '1 \\x002"},
      {"integer weight a double rounds", "0 1 9007199254740993\n", 1,
       "'9007199254740993' is an integer that a double cannot hold exactly"},
      {"lone CR line ends", "0 1\r1 2\r2 0\r", 1, "carriage return"},
      {"id beyond 64 bits", "0 1\n1 18446744073709551616\n", 2, "out of range"},
      {"glued text", "0 1\n12ab 3\n", 2, "source id '12ab'"},
  };
  for (const auto& c : cases) expect_error(c, ".txt");
  // Compaction lifts the 32-bit limit but not the 64-bit one.
  ReadOptions compact;
  compact.compact_ids = true;
  expect_error({"u64 overflow compacted", "0 1\n1 18446744073709551616\n", 2, "out of range"},
               ".txt", compact);
}

TEST(ReadErrors, FormatDetection) {
  // A .mtx name without the header is read as Matrix Market and reported as such.
  expect_error({"mtx without header", "1 2\n", 1, "missing '%%MatrixMarket'"}, ".mtx");
  expect_error({"mm without header", "1 2\n", 1, "missing '%%MatrixMarket'"}, ".mm");
  // Forcing SNAP on a Matrix Market file: '%' lines are comments in SNAP, so the size line reads
  // as a weighted edge and the first pattern entry then lacks a weight.
  ReadOptions snap;
  snap.format = wg::datasets::FileFormat::snap;
  expect_error({"mm read as snap", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n",
                3, "line has 2 fields but earlier edge lines have 3"},
               ".mtx", snap);
}

TEST(ReadErrors, IoAndGzip) {
  wg::test::TempDir dir;
  const std::string missing = dir.file("does_not_exist.mtx");
  try {
    read_graph(missing);
    ADD_FAILURE();
  } catch (const wg::ParseError&) {
    ADD_FAILURE() << "I/O failure reported as a parse error";
  } catch (const wg::Error& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
  // Truncated gzip.
  std::string text;
  for (int i = 0; i < 2000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  std::string gz = dir.write_gz("t.txt.gz", text);
  std::string bytes = wg::datasets::read_file(gz);
  EXPECT_EQ(bytes, text);
  {
    std::ifstream in(gz, std::ios::binary);
    std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string cut = dir.write("cut.txt.gz", std::string_view(raw).substr(0, raw.size() / 2));
    EXPECT_THROW(read_graph(cut), wg::Error);
    try {
      read_graph(cut);
    } catch (const wg::Error& e) {
      EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
    }
    std::string bad = raw;
    for (std::size_t i = 20; i < bad.size() - 8; i += 7) bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    std::string corrupt = dir.write("corrupt.txt.gz", bad);
    EXPECT_THROW(read_graph(corrupt), wg::Error);
    std::string trailing = dir.write("trailing.txt.gz", raw + "garbage");
    try {
      read_graph(trailing);
      ADD_FAILURE();
    } catch (const wg::Error& e) {
      EXPECT_NE(std::string(e.what()).find("after the end of the gzip stream"), std::string::npos)
          << e.what();
    }
    // Two members concatenated (gzip -c a b) read as the concatenated text.
    std::string twice = dir.write("twice.txt.gz", raw + raw);
    EXPECT_EQ(wg::datasets::read_file(twice), text + text);
  }
}

}  // namespace
