// `ndlc lsp`: a Language Server Protocol server over standard input and output, built on the
// compiler's own front end so that the editor and `ndlc check` never disagree
// (docs/editors.md). Documents are synchronised whole; each is re-checked once the messages
// already waiting have been read, so a burst of keystrokes costs one check.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/driver/lsp/Analysis.h"
#include "compiler/driver/lsp/RouteWorker.h"
#include "compiler/driver/lsp/Transport.h"

namespace ndl::lsp {

using json = nlohmann::json;

struct ServerOptions {
  std::filesystem::path stdlibDir;
  std::string version;
};

// A request the server answers with an error (the protocol's ResponseError).
struct RequestError {
  int code;
  std::string message;
};
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kServerNotInitialized = -32002;
inline constexpr int kRequestFailed = -32803;

struct Document {
  std::string uri;
  std::optional<std::filesystem::path> path;  // file: URIs
  std::string text;
  int64_t version = 0;
  bool open = false;  // opened by the client, or read from disk for one request
  // Of `text`; null when stale. Shared with the RouteWorker while it analyses the routing.
  std::shared_ptr<Analysis> analysis;
  std::vector<std::string> published;  // URIs its diagnostics went to last
  // The diagnostics of `text` are out (a request may have analysed it before checkStale).
  bool current = false;
};

class Server {
 public:
  Server(Transport& transport, ServerOptions options);
  // Serves until `exit`: 0 when `shutdown` came first, 1 otherwise (the protocol's rule).
  int run();
  // True while a routing analysis is under way or waiting (the process may then end without
  // waiting for it: runLsp).
  bool analysing() { return worker_.busy(); }

 private:
  void dispatch(const json& message);
  json request(const std::string& method, const json& params);
  void notification(const std::string& method, const json& params);
  void respond(const json& id, const json& result);
  void respondError(const json& id, const RequestError& error);
  void notify(const std::string& method, const json& params);
  void send(const json& message);

  // The document a request names: an open one, else the file read from disk when it lies in
  // the workspace or the stdlib.
  Document& document(const json& params);
  Analysis& analysis(Document& doc);
  void publish(Document& doc);
  void routeAnalysed(RouteJob& job);  // on the worker's thread
  void checkStale();
  bool inWorkspace(const std::filesystem::path& path) const;

  // The features (Features.cpp).
  json hover(Document& doc, const json& position);
  json definition(Document& doc, const json& position);
  json completion(Document& doc, const json& position);
  json documentSymbols(Document& doc);
  json formatting(Document& doc);
  json codeActions(Document& doc, const json& params);

  // Protocol ranges of a compiler range, and back.
  json range(const Analysis& a, const SourceRange& r) const;
  json location(const Analysis& a, const Document& doc, const SourceRange& r) const;
  json diagnostic(const Analysis& a, const Document& doc, const Diagnostic& d) const;
  std::string uriOf(const Analysis& a, const Document& doc, FileId file) const;

  Transport& transport_;
  ServerOptions options_;
  std::map<std::string, Document> docs_;
  std::vector<std::filesystem::path> roots_;  // the workspace's folders
  bool initialized_ = false;
  bool shutdown_ = false;
  bool exited_ = false;
  // Held by the server's thread while it handles a message and by the worker's while it
  // publishes an analysis: documents and output are touched under it only.
  std::mutex mutex_;
  RouteWorker worker_{[this](RouteJob& job) { routeAnalysed(job); }};  // last: first to stop
};

}  // namespace ndl::lsp
