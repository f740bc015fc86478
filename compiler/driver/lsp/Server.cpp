#include "compiler/driver/lsp/Server.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "compiler/driver/lsp/Positions.h"
#include "compiler/support/InternalError.h"

namespace ndl::lsp {

namespace fs = std::filesystem;

namespace {

// Applies one contentChange: the whole text, or (a client that ignores the server's Full sync)
// a range given in protocol positions.
void applyChange(std::string& text, const json& change) {
  if (!change.contains("range")) {
    text = change.at("text").get<std::string>();
    return;
  }
  auto offset = [&](const json& pos) {
    const uint32_t line = pos.at("line").get<uint32_t>();
    const uint32_t units = pos.at("character").get<uint32_t>();
    return byteOffset(text, line, codePoints(lineOf(text, line), units));
  };
  const size_t from = offset(change.at("range").at("start"));
  const size_t to = std::max(from, offset(change.at("range").at("end")));
  text.replace(from, to - from, change.at("text").get<std::string>());
}

bool isPrefix(const fs::path& root, const fs::path& path) {
  auto r = root.begin(), p = path.begin();
  for (; r != root.end(); ++r, ++p)
    if (r->empty()) continue;  // a trailing separator
    else if (p == path.end() || *r != *p) return false;
  return true;
}

}  // namespace

Server::Server(Transport& transport, ServerOptions options)
    : transport_(transport), options_(std::move(options)) {}

int Server::run() {
  while (!exited_) {
    if (!transport_.pending()) {  // nothing waiting: the documents are current
      std::lock_guard<std::mutex> lock(mutex_);
      checkStale();
    }
    Transport::Read read = transport_.next();  // unlocked: the worker may publish meanwhile
    std::lock_guard<std::mutex> lock(mutex_);
    if (read.status == Transport::Status::Closed) return shutdown_ ? 0 : 1;
    if (read.status == Transport::Status::Malformed) {
      respondError(nullptr, {kParseError, read.error});
      continue;
    }
    json message = json::parse(read.body, nullptr, false);
    if (message.is_discarded()) {
      respondError(nullptr, {kParseError, "the message is not JSON"});
      continue;
    }
    dispatch(message);
  }
  return shutdown_ ? 0 : 1;
}

void Server::dispatch(const json& message) {
  const bool hasId = message.is_object() && message.contains("id") &&
                     (message["id"].is_number_integer() || message["id"].is_string());
  if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) {
    // A response to a request of ours (the server sends none) or not a message at all.
    if (message.is_object() && (message.contains("result") || message.contains("error"))) return;
    respondError(hasId ? message["id"] : json(nullptr),
                 {kInvalidRequest, "a message needs a string 'method'"});
    return;
  }
  const std::string method = message["method"];
  const json params = message.value("params", json::object());
  if (!hasId) {
    try {
      notification(method, params);
    } catch (const std::exception&) {
      // A notification has no answer; a malformed one is dropped.
    }
    return;
  }
  const json& id = message["id"];
  try {
    respond(id, request(method, params));
  } catch (const RequestError& e) {
    respondError(id, e);
  } catch (const json::exception& e) {
    respondError(id, {kInvalidParams, fmt::format("{}: {}", method, e.what())});
  } catch (const InternalError& e) {
    respondError(id, {kRequestFailed, fmt::format("internal compiler error: {}", e.what())});
  }
}

json Server::request(const std::string& method, const json& params) {
  if (method == "initialize") {
    initialized_ = true;
    roots_.clear();
    if (params.contains("workspaceFolders") && params["workspaceFolders"].is_array())
      for (const json& f : params["workspaceFolders"])
        if (auto p = uriToPath(f.at("uri").get<std::string>())) roots_.push_back(*p);
    if (roots_.empty() && params.contains("rootUri") && params["rootUri"].is_string())
      if (auto p = uriToPath(params["rootUri"].get<std::string>())) roots_.push_back(*p);
    if (roots_.empty() && params.contains("rootPath") && params["rootPath"].is_string())
      roots_.push_back(params["rootPath"].get<std::string>());
    for (fs::path& r : roots_) r = fs::weakly_canonical(r);
    return {
        {"capabilities",
         {{"textDocumentSync", {{"openClose", true}, {"change", 1}}},
          {"hoverProvider", true},
          {"definitionProvider", true},
          {"completionProvider", {{"triggerCharacters", {"(", " "}}}},
          {"documentSymbolProvider", true},
          {"documentFormattingProvider", true},
          {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}}}},
        {"serverInfo", {{"name", "ndlc"}, {"version", options_.version}}}};
  }
  if (!initialized_) throw RequestError{kServerNotInitialized, "initialize comes first"};
  if (shutdown_) throw RequestError{kInvalidRequest, "the server is shutting down"};
  if (method == "shutdown") {
    shutdown_ = true;
    return nullptr;
  }
  if (method == "textDocument/hover") return hover(document(params), params.at("position"));
  if (method == "textDocument/definition")
    return definition(document(params), params.at("position"));
  if (method == "textDocument/completion")
    return completion(document(params), params.at("position"));
  if (method == "textDocument/documentSymbol") return documentSymbols(document(params));
  if (method == "textDocument/formatting") return formatting(document(params));
  if (method == "textDocument/codeAction") return codeActions(document(params), params);
  throw RequestError{kMethodNotFound, fmt::format("ndlc lsp does not serve {}", method)};
}

void Server::notification(const std::string& method, const json& params) {
  if (method == "exit") {
    exited_ = true;
    return;
  }
  if (!initialized_ || shutdown_) return;
  if (method == "textDocument/didOpen") {
    const json& td = params.at("textDocument");
    const std::string uri = td.at("uri");
    Document& doc = docs_[uri];
    doc.uri = uri;
    doc.path = uriToPath(uri);
    doc.text = td.at("text").get<std::string>();
    doc.version = td.value("version", int64_t{0});
    doc.open = true;
    doc.analysis.reset();
    doc.current = false;
  } else if (method == "textDocument/didChange") {
    auto it = docs_.find(params.at("textDocument").at("uri").get<std::string>());
    if (it == docs_.end()) return;  // a change to a document never opened
    for (const json& change : params.at("contentChanges")) applyChange(it->second.text, change);
    it->second.version = params.at("textDocument").value("version", it->second.version);
    it->second.analysis.reset();
    it->second.current = false;
  } else if (method == "textDocument/didClose") {
    auto it = docs_.find(params.at("textDocument").at("uri").get<std::string>());
    if (it == docs_.end()) return;
    for (const std::string& uri : it->second.published)
      notify("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}});
    docs_.erase(it);
  }
}

// Text from a file with bytes that are not UTF-8 is sent with them replaced, not refused.
void Server::send(const json& message) {
  transport_.send(message.dump(-1, ' ', false, json::error_handler_t::replace));
}

void Server::respond(const json& id, const json& result) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}});
}

void Server::respondError(const json& id, const RequestError& error) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", error.code}, {"message", error.message}}}});
}

void Server::notify(const std::string& method, const json& params) {
  send({{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
}

bool Server::inWorkspace(const fs::path& path) const {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(path, ec);
  if (isPrefix(fs::weakly_canonical(options_.stdlibDir, ec), p)) return true;
  for (const fs::path& root : roots_)
    if (isPrefix(root, p)) return true;
  return false;
}

Document& Server::document(const json& params) {
  const std::string uri = params.at("textDocument").at("uri");
  auto it = docs_.find(uri);
  if (it != docs_.end()) return it->second;
  std::optional<fs::path> path = uriToPath(uri);
  if (!path) throw RequestError{kInvalidParams, fmt::format("{} is not open and not a file", uri)};
  if (!inWorkspace(*path))
    throw RequestError{kInvalidParams,
                       fmt::format("{} is outside the workspace and the stdlib, and not open",
                                   path->string())};
  std::ifstream in(*path, std::ios::binary);
  if (!in) throw RequestError{kInvalidParams, fmt::format("cannot read {}", path->string())};
  std::ostringstream text;
  text << in.rdbuf();
  Document& doc = docs_[uri];
  doc.uri = uri;
  doc.path = path;
  doc.text = text.str();
  doc.open = false;  // read for this request: re-read for the next one
  return doc;
}

Analysis& Server::analysis(Document& doc) {
  if (!doc.analysis) {
    const std::string shown = doc.path ? doc.path->string() : doc.uri;
    doc.analysis = analyze(shown, doc.path.value_or(fs::path()), doc.text, options_.stdlibDir);
  }
  return *doc.analysis;
}

void Server::checkStale() {
  for (auto it = docs_.begin(); it != docs_.end();) {
    if (!it->second.open) {  // read from disk for one request
      it = docs_.erase(it);
      continue;
    }
    if (!it->second.current) {
      it->second.current = true;
      analysis(it->second);
      publish(it->second);
      // The front end's diagnostics are out; the routing's follow when its analysis ends.
      if (needsRouteAnalysis(*it->second.analysis))
        worker_.submit(RouteWorker::makeJob(it->first, it->second.analysis));
    }
    ++it;
  }
}

std::string Server::uriOf(const Analysis& a, const Document& doc, FileId file) const {
  if (file == a.main || file == kNoFile) return doc.uri;
  const std::string& path = a.sources.path(file);
  return path.empty() ? doc.uri : pathToUri(path);
}

json Server::range(const Analysis& a, const SourceRange& r) const {
  if (!r.valid()) return {{"start", {{"line", 0}, {"character", 0}}},
                          {"end", {{"line", 0}, {"character", 0}}}};
  auto pos = [&](uint32_t line, uint32_t col) {
    const std::string_view text = a.sources.line(r.file, line);
    return json{{"line", line - 1}, {"character", utf16Units(text, col - 1)}};
  };
  return {{"start", pos(r.line, r.col)}, {"end", pos(r.endLine, std::max(r.endCol, 1u))}};
}

json Server::location(const Analysis& a, const Document& doc, const SourceRange& r) const {
  return {{"uri", uriOf(a, doc, r.file)}, {"range", range(a, r)}};
}

json Server::diagnostic(const Analysis& a, const Document& doc, const Diagnostic& d) const {
  json diag = {{"range", range(a, d.range)},
               {"severity", d.severity == Severity::Error     ? 1
                            : d.severity == Severity::Warning ? 2
                                                              : 3},
               {"code", std::string(diagKindName(d.kind))},
               {"source", "ndlc"},
               {"message", d.hint.empty() ? d.message : d.message + "\nhint: " + d.hint}};
  json related = json::array();
  for (const DiagNote& n : d.notes)
    if (n.range.valid())
      related.push_back({{"location", location(a, doc, n.range)}, {"message", n.message}});
  if (!related.empty()) diag["relatedInformation"] = std::move(related);
  return diag;
}

void Server::routeAnalysed(RouteJob& job) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = docs_.find(job.uri);
  // A document changed or closed meanwhile has another analysis coming, or none.
  if (it == docs_.end() || it->second.analysis != job.analysis) return;
  if (!job.failure.empty())
    notify("window/showMessage",
           {{"type", 1},
            {"message", fmt::format("ndlc lsp: internal compiler error in the routing's analysis "
                                    "of {}: {}", job.uri, job.failure)}});
  const bool any = !job.diags->diagnostics().empty();
  job.analysis->routeDiags = std::move(job.diags);
  if (any) publish(it->second);  // nothing new: what was published stands
}

void Server::publish(Document& doc) {
  const Analysis& a = analysis(doc);
  std::map<std::string, json> byUri;
  byUri[doc.uri] = json::array();
  for (const std::string& uri : doc.published) byUri[uri] = json::array();  // cleared if gone
  const DiagnosticEngine* engines[] = {&a.diags, a.routeDiags.get()};
  for (const DiagnosticEngine* engine : engines) {
    if (!engine) continue;
    for (const Diagnostic& d : engine->diagnostics())
      byUri[uriOf(a, doc, d.range.valid() ? d.range.file : kNoFile)].push_back(
          diagnostic(a, doc, d));
  }
  doc.published.clear();
  for (auto& [uri, list] : byUri) {
    if (uri != doc.uri && !list.empty()) doc.published.push_back(uri);
    json params = {{"uri", uri}, {"diagnostics", std::move(list)}};
    if (uri == doc.uri) params["version"] = doc.version;
    notify("textDocument/publishDiagnostics", params);
  }
}

}  // namespace ndl::lsp
