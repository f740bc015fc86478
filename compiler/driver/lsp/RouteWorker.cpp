#include "compiler/driver/lsp/RouteWorker.h"

#include "compiler/elaborate/Evaluator.h"

namespace ndl::lsp {

namespace {
// As `ndlc build`'s route trace: the evaluator nests up to elab::kMaxCallDepth NDL calls of a
// few frames each, several times larger under AddressSanitizer.
constexpr size_t kStackBytes = size_t{64} << 20;
}  // namespace

RouteWorker::RouteWorker(std::function<void(RouteJob&)> done) : done_(std::move(done)) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kStackBytes);
  started_ = pthread_create(&thread_, &attr, &RouteWorker::loop, this) == 0;
  pthread_attr_destroy(&attr);
}

RouteWorker::~RouteWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    queue_.clear();
  }
  wake_.notify_all();
  if (started_) pthread_join(thread_, nullptr);
}

std::unique_ptr<RouteJob> RouteWorker::makeJob(const std::string& uri, std::shared_ptr<Analysis> a) {
  auto job = std::make_unique<RouteJob>();
  job->uri = uri;
  job->diags = std::make_unique<DiagnosticEngine>(a->sources, DiagOptions{false, 200});
  job->evaluator = std::make_unique<elab::Evaluator>(a->result.checked->defs, *job->diags);
  job->evaluator->network() = a->result.evaluator->network();
  job->analysis = std::move(a);
  return job;
}

void RouteWorker::submit(std::unique_ptr<RouteJob> job) {
  if (!started_) {  // no thread to be had: analysed here
    driver::checkDeadlock(job->analysis->result, *job->diags, job->evaluator.get());
    done_(*job);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = queue_.begin(); it != queue_.end();)
      it = (*it)->uri == job->uri ? queue_.erase(it) : it + 1;
    queue_.push_back(std::move(job));
  }
  wake_.notify_one();
}

bool RouteWorker::busy() {
  std::lock_guard<std::mutex> lock(mutex_);
  return busy_ || !queue_.empty();
}

void* RouteWorker::loop(void* self) {
  auto* w = static_cast<RouteWorker*>(self);
  for (;;) {
    std::unique_ptr<RouteJob> job;
    {
      std::unique_lock<std::mutex> lock(w->mutex_);
      w->wake_.wait(lock, [&] { return w->stop_ || !w->queue_.empty(); });
      if (w->stop_) return nullptr;
      job = std::move(w->queue_.front());
      w->queue_.pop_front();
      w->busy_ = true;
    }
    try {
      driver::checkDeadlock(job->analysis->result, *job->diags, job->evaluator.get());
    } catch (const std::exception& e) {
      // An internal error of the analysis is reported to the user, not the server's end.
      job->failure = e.what();
    }
    w->done_(*job);
    std::lock_guard<std::mutex> lock(w->mutex_);
    w->busy_ = false;
  }
}

}  // namespace ndl::lsp
