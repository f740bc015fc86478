#include <unistd.h>

#include "compiler/driver/Commands.h"
#include "compiler/driver/lsp/Server.h"

namespace ndl::driver {

int runLsp(const std::filesystem::path& stdlibDir, const std::string& version) {
  lsp::Transport transport(STDIN_FILENO, STDOUT_FILENO);
  lsp::Server server(transport, lsp::ServerOptions{stdlibDir, version});
  return server.run();
}

}  // namespace ndl::driver
