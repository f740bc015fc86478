// How a result file is written (output_file.h): a regular file or a new name whole or not at
// all, a symbolic link through to its target, a FIFO or a device in place and never replaced,
// a directory refused; and --json /dev/stdout through the simulator's own stdout.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ndl/runtime/sim/simulator_main.h"
#include "ndl/runtime/stats/json_output.h"
#include "ndl/runtime/stats/output_file.h"
#include "test_networks.h"

namespace ndl::rt {
namespace {

namespace fs = std::filesystem;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh directory of the test's own.
std::string freshDir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("ndl_rt_files_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

// Names in `dir` (to see that no temporary file is left behind).
std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(OutputFile, RegularFileIsReplacedWholeAndKeepsItsMode) {
  const std::string dir = freshDir("regular");
  const std::string path = dir + "/out.json";
  std::string error;
  ASSERT_TRUE(writeOutputFile(path, "first\n", &error)) << error;
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  ASSERT_TRUE(writeOutputFile(path, "second\n", &error)) << error;
  EXPECT_EQ(readFile(path), "second\n");  // replaced, not appended to
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_NE(before.st_ino, after.st_ino);  // a new file renamed over the old one
  EXPECT_EQ(after.st_mode & 07777, 0640u);
  EXPECT_EQ(listing(dir), std::vector<std::string>{"out.json"});
}

TEST(OutputFile, MissingDirectoryIsAnErrorNamingTheFile) {
  const std::string missing = freshDir("missing") + "/no_such_dir/out.json";
  std::string error;
  EXPECT_FALSE(writeOutputFile(missing, "x", &error));
  EXPECT_EQ(error, "cannot write '" + missing + "': No such file or directory");
}

TEST(OutputFile, SymbolicLinkIsFollowedToItsTargetAndStaysALink) {
  const std::string dir = freshDir("symlink");
  fs::create_directories(dir + "/data");
  std::ofstream(dir + "/data/real.json") << "old\n";
  // A relative link, resolved against its own directory (not the working directory).
  ASSERT_EQ(::symlink("data/real.json", (dir + "/link.json").c_str()), 0);
  std::string error;
  ASSERT_TRUE(writeOutputFile(dir + "/link.json", "new\n", &error)) << error;
  EXPECT_TRUE(fs::is_symlink(dir + "/link.json"));
  EXPECT_EQ(fs::read_symlink(dir + "/link.json"), "data/real.json");
  EXPECT_EQ(readFile(dir + "/data/real.json"), "new\n");
  // The temporary file was made beside the target, and is gone.
  EXPECT_EQ(listing(dir + "/data"), std::vector<std::string>{"real.json"});

  // A chain of links, and a link whose target does not exist yet: made there.
  ASSERT_EQ(::symlink("link.json", (dir + "/chain.json").c_str()), 0);
  ASSERT_TRUE(writeOutputFile(dir + "/chain.json", "chained\n", &error)) << error;
  EXPECT_EQ(readFile(dir + "/data/real.json"), "chained\n");
  ASSERT_EQ(::symlink((dir + "/data/later.json").c_str(), (dir + "/dangling.json").c_str()), 0);
  ASSERT_TRUE(writeOutputFile(dir + "/dangling.json", "made\n", &error)) << error;
  EXPECT_TRUE(fs::is_symlink(dir + "/dangling.json"));
  EXPECT_EQ(readFile(dir + "/data/later.json"), "made\n");
}

TEST(OutputFile, LinkLoopIsAnError) {
  const std::string dir = freshDir("loop");
  ASSERT_EQ(::symlink("b", (dir + "/a").c_str()), 0);
  ASSERT_EQ(::symlink("a", (dir + "/b").c_str()), 0);
  std::string error;
  EXPECT_FALSE(writeOutputFile(dir + "/a", "x", &error));
  EXPECT_EQ(error, "cannot write '" + dir + "/a': Too many levels of symbolic links");
  EXPECT_TRUE(fs::is_symlink(dir + "/a"));
}

TEST(OutputFile, DirectoryIsAnErrorWithAHint) {
  const std::string dir = freshDir("directory");
  fs::create_directories(dir + "/out");
  std::string error;
  EXPECT_FALSE(writeOutputFile(dir + "/out", "x", &error));
  EXPECT_EQ(error, "cannot write '" + dir + "/out': Is a directory\nhint: name a file, e.g. '" +
                       dir + "/out/results.json'");
  EXPECT_FALSE(writeOutputFile(dir + "/out/", "x", &error));
  EXPECT_EQ(error, "cannot write '" + dir + "/out/': Is a directory\nhint: name a file, e.g. '" +
                       dir + "/out/results.json'");
  EXPECT_TRUE(fs::is_directory(dir + "/out"));
  EXPECT_TRUE(fs::is_empty(dir + "/out"));
  EXPECT_EQ(listing(dir), std::vector<std::string>{"out"});
}

TEST(OutputFile, FifoIsWrittenInPlaceToItsReader) {
  const std::string dir = freshDir("fifo");
  const std::string fifo = dir + "/results.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = readFile(fifo); });
  const std::string text(1 << 17, 'r');  // more than a pipe's buffer: the reader drains it
  std::string error;
  const bool ok = writeOutputFile(fifo, text, &error);
  reader.join();
  EXPECT_TRUE(ok) << error;
  EXPECT_EQ(got, text);
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));  // not replaced by a regular file
  EXPECT_EQ(listing(dir), std::vector<std::string>{"results.fifo"});
}

// A character device to write to: a node of our own for /dev/full (1, 7) or /dev/null (1, 3)
// when we may make one (as root), so that nothing under /dev is at stake; else /dev's own.
std::string characterDevice(const std::string& dir, const char* name, unsigned minor) {
  const std::string node = dir + "/" + name;
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0) {
    const int fd = ::open(node.c_str(), O_WRONLY);
    if (fd >= 0) {
      ::close(fd);
      return node;
    }
    ::unlink(node.c_str());  // a file system mounted nodev
  }
  return std::string("/dev/") + name;
}

TEST(OutputFile, FullDeviceIsAnErrorAndStaysADevice) {
  const std::string dir = freshDir("full");
  const std::string full = characterDevice(dir, "full", 7);
  struct stat before {};
  ASSERT_EQ(::lstat(full.c_str(), &before), 0) << full;
  ASSERT_TRUE(S_ISCHR(before.st_mode)) << full;
  std::string error;
  EXPECT_FALSE(writeOutputFile(full, std::string(1 << 16, 'x'), &error));
  EXPECT_EQ(error, "cannot write '" + full + "': No space left on device");
  // Written in parts (a table's rows): the same error.
  error.clear();
  EXPECT_FALSE(writeOutputFile(
      full,
      [](std::FILE* f) {
        for (int i = 0; i < 1 << 12; ++i) std::fputs("a row of the per-node table\n", f);
      },
      &error));
  EXPECT_EQ(error, "cannot write '" + full + "': No space left on device");
  struct stat after {};
  ASSERT_EQ(::lstat(full.c_str(), &after), 0);
  EXPECT_TRUE(S_ISCHR(after.st_mode));  // the device node is still there, not a file
  EXPECT_EQ(after.st_rdev, before.st_rdev);
  EXPECT_EQ(after.st_ino, before.st_ino);
  // And the null device takes the text, and stays a device.
  const std::string null = characterDevice(dir, "null", 3);
  EXPECT_TRUE(writeOutputFile(null, "{}\n", &error)) << error;
  struct stat st {};
  ASSERT_EQ(::lstat(null.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(OutputFile, ResolvesEachKindOfTarget) {
  const std::string dir = freshDir("resolve");
  std::string error;
  OutputTarget t;
  ASSERT_TRUE(resolveOutputTarget(dir + "/new.json", t, &error)) << error;
  EXPECT_EQ(t.way, OutputTarget::Way::kReplace);
  EXPECT_EQ(t.path, fs::canonical(dir).string() + "/new.json");
  // /dev/stdout is this process's descriptor 1, whatever it is open on.
  ASSERT_TRUE(resolveOutputTarget("/dev/stdout", t, &error)) << error;
  EXPECT_EQ(t.way, OutputTarget::Way::kDescriptor);
  EXPECT_EQ(t.fd, 1);
  ASSERT_TRUE(resolveOutputTarget("/dev/fd/2", t, &error)) << error;
  EXPECT_EQ(t.way, OutputTarget::Way::kDescriptor);
  EXPECT_EQ(t.fd, 2);
  EXPECT_FALSE(resolveOutputTarget("", t, &error));
  EXPECT_EQ(error, "cannot write '': no file name");
}

int runMain(std::vector<std::string> args, const NetworkDesc& desc, const SimParams& p) {
  args.insert(args.begin(), "sim");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return simulatorMain(static_cast<int>(argv.size()), argv.data(), desc, p);
}

SimParams small() {
  SimParams p = testing::baseParams(FlowControl::kVirtualCutThrough, 8, 8, 2);
  p.virtual_channels = 2;
  testing::useDateline(p);
  testing::setLoad(p, 0.1);
  p.measured_messages = 300;
  p.seed = 3;
  return p;
}

TEST(SimulatorMain, JsonToDevStdoutIsParseableWithQuiet) {
  ::testing::internal::CaptureStdout();
  const int code = runMain({"--quiet", "--json", "/dev/stdout"}, makeTorus({4, 4}), small());
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(code, 0);
  const nlohmann::json j = nlohmann::json::parse(out);  // the JSON alone
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["messages"]["delivered"].get<int64_t>() >= 300, true);
  // No file beside a stream for the tables: the summary says so.
  EXPECT_TRUE(j["tables"]["nodes"].is_null());
  EXPECT_NE(j["tables"]["note"].get<std::string>().find("the JSON goes to '/dev/stdout'"),
            std::string::npos);
  EXPECT_TRUE(fs::is_symlink("/dev/stdout"));
}

TEST(SimulatorMain, FullDeviceFailsWithExitThreeAndTheOtherFilesAreWritten) {
  const std::string dir = freshDir("main_full");
  const std::string full = characterDevice(dir, "full", 7);
  SimParams p = small();
  p.data_output_file = full;
  p.screen_output_file = dir + "/report.sof";
  ::testing::internal::CaptureStderr();
  const int code = runMain({"--quiet", "--json", dir + "/out.json"}, makeTorus({4, 4}), p);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, 3);
  EXPECT_NE(err.find("error: cannot write '" + full + "': No space left on device"),
            std::string::npos)
      << err;
  EXPECT_EQ(nlohmann::json::parse(readFile(dir + "/out.json"))["status"], "ok");
  EXPECT_NE(readFile(dir + "/report.sof").find("latency"), std::string::npos);
  struct stat st {};
  ASSERT_EQ(::lstat(full.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(SimulatorMain, JsonNamingADirectoryFailsWithExitThree) {
  const std::string dir = freshDir("main_dir");
  ::testing::internal::CaptureStderr();
  const int code = runMain({"--quiet", "--json", dir}, makeTorus({4, 4}), small());
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, 3);
  EXPECT_NE(err.find("error: cannot write '" + dir + "': Is a directory\nhint: name a file"),
            std::string::npos)
      << err;
  EXPECT_TRUE(fs::is_directory(dir));
}

}  // namespace
}  // namespace ndl::rt
