#include <unistd.h>

#include <cstdlib>

#include "compiler/driver/Commands.h"
#include "compiler/driver/lsp/Server.h"

namespace ndl::driver {

int runLsp(const std::filesystem::path& stdlibDir, const std::string& version) {
  lsp::Transport transport(STDIN_FILENO, STDOUT_FILENO);
  lsp::Server server(transport, lsp::ServerOptions{stdlibDir, version});
  const int code = server.run();
  // A routing analysis still under way (up to tens of seconds on the largest networks) is not
  // waited for: the editor asked the server to exit, and nothing of it is wanted any more.
  if (server.analysing()) std::_Exit(code);
  return code;
}

}  // namespace ndl::driver
