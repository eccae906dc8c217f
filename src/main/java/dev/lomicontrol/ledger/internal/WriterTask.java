package dev.lomicontrol.ledger.internal;

import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One item submitted to the {@link Writer}: a plain piece of work or one request of a group, the
 * hook to tell after its commit, and the future its caller waits on. A batch sets {@link #value} or
 * {@link #error} while it runs the item; {@link #complete} then hands the caller the one it holds.
 */
final class WriterTask<T> {

    /** Logged under the writer's name: the hook's failure is the writer's to report. */
    private static final Logger log = LoggerFactory.getLogger(Writer.class);

    /** What a plain item runs; null for a request of a group. */
    final Writer.@Nullable Work<T> work;

    /** The group a request belongs to; null for a plain item. */
    final Writer.@Nullable Group<?, T> group;

    final @Nullable Object request;
    final java.util.function.Consumer<? super T> afterCommit;
    final CompletableFuture<T> future = new CompletableFuture<>();

    @Nullable
    T value;

    @Nullable
    RuntimeException error;

    WriterTask(
            Writer.@Nullable Work<T> work,
            Writer.@Nullable Group<?, T> group,
            @Nullable Object request,
            java.util.function.Consumer<? super T> afterCommit) {
        this.work = work;
        this.group = group;
        this.request = request;
        this.afterCommit = afterCommit;
    }

    /** Tells the after-commit hook of an item that did not refuse; a failing hook never fails the committed work. */
    void committed() {
        if (error != null) {
            return;
        }
        try {
            afterCommit.accept(value);
        } catch (RuntimeException e) {
            log.warn("ledger: an after-commit listener failed: {}", e.toString());
        }
    }

    void complete() {
        if (error != null) {
            future.completeExceptionally(error);
        } else {
            future.complete(value);
        }
    }
}
