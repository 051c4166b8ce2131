//! The bounded pool CPU-heavy work runs on (sanitizing template content, rendering PDFs), so that
//! it never runs on the threads that answer requests: a tenant saving a heavy template, or many
//! downloading agreements, leaves `/healthz` and every other tenant's requests answered at once.
//!
//! At most `CLICKWRAP_CPU_THREADS` pieces of work run at a time (on tokio's blocking threads);
//! more wait for a turn without holding a request worker.

use std::sync::Arc;

use async_trait::async_trait;
use clickwrap_domain::consent::models::CertificateFacts;
use clickwrap_domain::ports::{CertificateRenderer, CpuPool, CpuPoolStopped, RenderError, run_on_cpu_pool};
use clickwrap_pdf::PdfRenderer;
use tokio::sync::Semaphore;

#[derive(Debug, Clone)]
pub(crate) struct BoundedCpuPool {
    turns: Arc<Semaphore>,
}

impl BoundedCpuPool {
    pub(crate) fn new(threads: usize) -> Self {
        Self { turns: Arc::new(Semaphore::new(threads.max(1))) }
    }
}

#[async_trait]
impl CpuPool for BoundedCpuPool {
    async fn run(&self, work: Box<dyn FnOnce() + Send>) -> Result<(), CpuPoolStopped> {
        // The semaphore is never closed.
        let turn = self.turns.clone().acquire_owned().await.map_err(|_| CpuPoolStopped)?;
        // The turn goes with the work: a caller that gives up (a client that disconnects) does
        // not free it before the work is done, so the bound holds.
        let running = tokio::task::spawn_blocking(move || {
            let _turn = turn;
            work();
        });
        match running.await {
            Ok(()) => Ok(()),
            Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
            // Cancelled: the runtime is shutting down.
            Err(_) => Err(CpuPoolStopped),
        }
    }
}

/// The certificate renderer with its CPU work on the pool. The Certificate of Acceptance may wait
/// for a time-stamping authority (a network call) in the middle of rendering; that wait holds its
/// turn, which is bounded by `CLICKWRAP_TSA_TIMEOUT_SECS`. The agreement PDF is put on the pool by
/// the use case itself (its port method is synchronous).
#[derive(Debug, Clone)]
pub(crate) struct PooledRenderer {
    renderer: Arc<PdfRenderer>,
    pool: Arc<dyn CpuPool>,
}

impl PooledRenderer {
    pub(crate) fn new(renderer: Arc<PdfRenderer>, pool: Arc<dyn CpuPool>) -> Self {
        Self { renderer, pool }
    }
}

#[async_trait]
impl CertificateRenderer for PooledRenderer {
    async fn render_certificate(&self, facts: &CertificateFacts) -> Result<Vec<u8>, RenderError> {
        let renderer = self.renderer.clone();
        let facts = facts.clone();
        // The blocking thread drives the renderer's future; its network IO is driven by the
        // runtime of the request that waits for it.
        let runtime = tokio::runtime::Handle::current();
        run_on_cpu_pool(&*self.pool, move || runtime.block_on(renderer.render_certificate(&facts)))
            .await
            .map_err(|stopped| RenderError(stopped.to_string()))?
    }

    fn render_agreement(&self, facts: &CertificateFacts) -> Result<Vec<u8>, RenderError> {
        self.renderer.render_agreement(facts)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_more_than_the_bound_runs_at_once() {
        let pool = BoundedCpuPool::new(2);
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let works: Vec<_> = (0..8)
            .map(|_| {
                let (pool, running, most) = (pool.clone(), running.clone(), most.clone());
                tokio::spawn(async move {
                    run_on_cpu_pool(&pool, move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(20));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                    .unwrap();
                })
            })
            .collect();
        for work in works {
            work.await.unwrap();
        }
        let most = most.load(Ordering::SeqCst);
        assert!((1..=2).contains(&most), "{most} ran at once");
    }

    #[tokio::test]
    async fn results_and_panics_come_back_to_the_caller() {
        let pool = BoundedCpuPool::new(1);
        assert_eq!(run_on_cpu_pool(&pool, || 6 * 7).await, Ok(42));
        let pool_after_panic = pool.clone();
        let panicked = tokio::spawn(async move { run_on_cpu_pool(&pool, || panic!("in the work")).await }).await;
        assert!(panicked.unwrap_err().is_panic());
        // The turn of the work that panicked was given back.
        assert_eq!(run_on_cpu_pool(&pool_after_panic, || "again").await, Ok("again"));
    }
}
