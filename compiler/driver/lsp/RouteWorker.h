// The routing's analysis of an editor document (its routes traced, its channel dependencies
// followed: driver::checkDeadlock, what `ndlc check` runs last) on a thread of its own, so that
// the front end's diagnostics, hover and completion do not wait for it. On the largest
// examples the front end takes a tenth of a second and the analysis up to tens of seconds.
//
// One thread serves every document, one analysis at a time, the newest request for a document
// replacing one not yet started. The server publishes the front end's diagnostics at once and
// the analysis' when it ends, if the document has not changed meanwhile (docs/editors.md).
#pragma once

#include <pthread.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "compiler/driver/lsp/Analysis.h"

namespace ndl::lsp {

struct RouteJob {
  std::string uri;
  std::shared_ptr<Analysis> analysis;  // kept alive by the job while the document moves on
  // The routings run on an evaluator of their own, made on the server's thread from the
  // analysis' (which hover and completion may use meanwhile), reporting to `diags`.
  std::unique_ptr<DiagnosticEngine> diags;
  std::unique_ptr<elab::Evaluator> evaluator;
  std::string failure;  // an internal error that stopped the analysis
};

class RouteWorker {
 public:
  // `done` runs on the worker's thread when an analysis ends, with the job (its diagnostics
  // filled); it takes the server's lock itself.
  explicit RouteWorker(std::function<void(RouteJob&)> done);
  ~RouteWorker();  // waits for the analysis under way (see abandon)
  RouteWorker(const RouteWorker&) = delete;
  RouteWorker& operator=(const RouteWorker&) = delete;

  // A job for the analysis `a` of the document `uri` (a network elaborated without errors).
  static std::unique_ptr<RouteJob> makeJob(const std::string& uri, std::shared_ptr<Analysis> a);
  void submit(std::unique_ptr<RouteJob> job);
  // True while an analysis runs: a server that exits then ends the process without waiting.
  bool busy();

 private:
  static void* loop(void* self);
  std::function<void(RouteJob&)> done_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::unique_ptr<RouteJob>> queue_;
  bool busy_ = false;
  bool stop_ = false;
  pthread_t thread_{};
  bool started_ = false;
};

}  // namespace ndl::lsp
