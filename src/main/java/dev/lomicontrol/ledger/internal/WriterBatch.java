package dev.lomicontrol.ledger.internal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteException;

/**
 * What the {@link Writer} does on its connection: runs a batch as one {@code BEGIN IMMEDIATE}
 * transaction, each unit (a plain item, or a group's requests together) in its own SAVEPOINT unless
 * it is alone, commits, and completes every item only after COMMIT returned; tells a failed
 * statement's storage fault apart (full or read-only: refused and remembered; I/O error or
 * corruption: broken until restart); checkpoints the WAL between batches. Only the thread holding
 * the writer's connection lock calls {@link #run}, {@link #checkpointQuietly} and
 * {@link #checkpointIfWanted}; the state others read is volatile.
 */
final class WriterBatch {

    /** Logged under the writer's name: operators know the ledger writer, not its parts. */
    private static final Logger log = LoggerFactory.getLogger(Writer.class);

    /** How often a refused write is logged at most while the store stays full or read-only. */
    private static final long WARNING_INTERVAL_NANOS = 30_000_000_000L;

    private final Connection connection;
    private final AtomicLong commits = new AtomicLong();
    private volatile @Nullable String broken;
    private volatile Writer.@Nullable Refusal lastRefusal;
    private volatile long lastWarning = System.nanoTime() - WARNING_INTERVAL_NANOS;
    private volatile boolean checkpointWanted;

    /**
     * The thread running the current work item (the writer thread, or a caller running its item
     * alone), null between items; {@link #inWork} is true while it runs. Only that thread ever finds
     * itself here, so only it acts on {@link #inWork}.
     */
    private volatile @Nullable Thread owner;

    private boolean inWork;

    /** {@code connection} is the writer's own, already wrapped in the statement cache. */
    WriterBatch(Connection connection) {
        this.connection = connection;
    }

    /** Why the writer stopped after a storage fault; null while it works. */
    @Nullable
    String broken() {
        return broken;
    }

    long commits() {
        return commits.get();
    }

    Writer.@Nullable Refusal lastRefusal() {
        return lastRefusal;
    }

    void run(List<WriterTask<?>> batch) {
        if (broken != null) {
            failAll(
                    batch,
                    new LomiException(
                            ErrorCode.STORAGE_UNAVAILABLE,
                            "the ledger writer stopped after a storage fault (" + broken + ")"));
            return;
        }
        try {
            execute("BEGIN IMMEDIATE");
        } catch (SQLException e) {
            failAll(batch, storageFault("cannot start a write transaction", e));
            return;
        }
        List<List<WriterTask<?>>> units = units(batch);
        // a unit alone in its transaction needs no savepoint: its refusal rolls the transaction back
        boolean savepoint = units.size() > 1;
        boolean refusedAlone = false;
        for (List<WriterTask<?>> unit : units) {
            try {
                refusedAlone = unit.get(0).group == null
                        ? runInSavepoint(unit.get(0), savepoint)
                        : runGroupInSavepoint(unit, savepoint);
            } catch (SQLException e) {
                rollbackQuietly();
                failAll(batch, storageFault("write failed", e));
                return;
            }
        }
        if (refusedAlone) {
            batch.forEach(WriterTask::complete);
            return;
        }
        try {
            execute("COMMIT");
            commits.incrementAndGet();
        } catch (SQLException e) {
            rollbackQuietly();
            failAll(batch, storageFault("commit failed; the effect is blocked", e));
            checkpointWanted = true;
            return;
        }
        for (WriterTask<?> task : batch) {
            task.committed();
        }
        for (WriterTask<?> task : batch) {
            task.complete();
        }
    }

    /** The batch in the order it runs: each plain item alone, a group's requests together where its first one is. */
    private static List<List<WriterTask<?>>> units(List<WriterTask<?>> batch) {
        List<List<WriterTask<?>>> units = new ArrayList<>(batch.size());
        Map<Writer.Group<?, ?>, List<WriterTask<?>>> groups = new IdentityHashMap<>();
        for (WriterTask<?> task : batch) {
            Writer.Group<?, ?> group = task.group;
            if (group == null) {
                units.add(List.of(task));
                continue;
            }
            List<WriterTask<?>> members = groups.get(group);
            if (members == null) {
                members = new ArrayList<>();
                groups.put(group, members);
                units.add(members);
            }
            members.add(task);
        }
        return units;
    }

    /**
     * Runs the requests of one group (every task of {@code members} has it) in a savepoint, or without
     * one when the unit is alone in the transaction; true when it refused alone and rolled the
     * transaction back.
     */
    @SuppressWarnings("unchecked")
    private boolean runGroupInSavepoint(List<WriterTask<?>> members, boolean savepoint) throws SQLException {
        Writer.Group<Object, Object> group =
                (Writer.Group<Object, Object>) Objects.requireNonNull(members.get(0).group);
        List<Object> requests = new ArrayList<>(members.size());
        for (WriterTask<?> task : members) {
            requests.add(task.request);
        }
        begin(savepoint);
        try {
            List<Object> values = runBound(c -> group.runAll(c, requests));
            if (values == null || values.size() != members.size()) {
                throw new IllegalStateException(
                        "a writer group answered " + (values == null ? "nothing" : values.size()) + " outcomes for "
                                + members.size() + " requests");
            }
            for (int i = 0; i < members.size(); i++) {
                ((WriterTask<Object>) members.get(i)).value = values.get(i);
            }
            release(savepoint);
            return false;
        } catch (RuntimeException e) {
            return refuse(members, e, savepoint);
        }
    }

    /** As {@link #runGroupInSavepoint} for a plain item. */
    private <T> boolean runInSavepoint(WriterTask<T> task, boolean savepoint) throws SQLException {
        begin(savepoint);
        try {
            task.value = runBound(Objects.requireNonNull(task.work, "a plain item has work"));
            release(savepoint);
            return false;
        } catch (RuntimeException e) {
            return refuse(List.of(task), e, savepoint);
        }
    }

    /**
     * What a unit's runtime exception means: an SQL error under it fails the batch (thrown on); anything
     * else refuses the unit's {@code tasks} and rolls back what they wrote (see {@link #rollBack}).
     */
    private boolean refuse(List<? extends WriterTask<?>> tasks, RuntimeException e, boolean savepoint)
            throws SQLException {
        SQLException sql = sqlCause(e);
        if (sql != null) {
            throw sql;
        }
        for (WriterTask<?> task : tasks) {
            task.error = e;
        }
        return rollBack(savepoint);
    }

    private void begin(boolean savepoint) throws SQLException {
        if (savepoint) {
            execute("SAVEPOINT item");
        }
    }

    private void release(boolean savepoint) throws SQLException {
        if (savepoint) {
            execute("RELEASE item");
        }
    }

    /** Undoes a refused unit: back to its savepoint, or the whole transaction when it ran alone (true). */
    private boolean rollBack(boolean savepoint) throws SQLException {
        if (!savepoint) {
            execute("ROLLBACK");
            return true;
        }
        execute("ROLLBACK TO item");
        execute("RELEASE item");
        return false;
    }

    /**
     * The SQL error under a runtime exception that a library (Spring Data JDBC) wrapped it in, so an
     * SQL failure is a storage fault of the batch whichever way it was raised; null for a refusal.
     */
    private static @Nullable SQLException sqlCause(RuntimeException e) {
        if (e instanceof LomiException) {
            return null;
        }
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof SQLException) {
                return (SQLException) cause;
            }
        }
        return null;
    }

    private <T> @Nullable T runBound(Writer.Work<T> work) throws SQLException {
        owner = Thread.currentThread();
        inWork = true;
        try {
            return work.run(connection);
        } finally {
            inWork = false;
            owner = null;
        }
    }

    /** See {@link Writer#boundConnection}. */
    java.util.Optional<Connection> boundConnection() {
        return Thread.currentThread() == owner && inWork
                ? java.util.Optional.of(connection)
                : java.util.Optional.empty();
    }

    private LomiException storageFault(String what, SQLException e) {
        int base = e instanceof SQLiteException
                ? ((SQLiteException) e).getResultCode().code & 0xff
                : e.getErrorCode() & 0xff;
        String detail;
        switch (base) {
            case 13:
                detail = "the disk or the store's size limit is full";
                refused(detail, "free space on the data directory's file system");
                break;
            case 8:
                detail = "the store is read-only";
                refused(detail, "make the data directory writable again (remount it read-write, fix permissions)");
                break;
            case 10:
            case 11:
            case 26:
                detail = "I/O error or corruption";
                broken = what + ": " + e.getMessage();
                log.error("ledger writer stopped: {}", broken, e);
                break;
            default:
                detail = "SQLite error";
        }
        return new LomiException(ErrorCode.STORAGE_UNAVAILABLE, what + " (" + detail + "): " + e.getMessage(), e);
    }

    /** Remembers the refusal for the admin's status and logs it, at most every 30 s while it lasts. */
    private void refused(String detail, String action) {
        lastRefusal = new Writer.Refusal(java.time.Instant.now(), detail, commits.get());
        long now = System.nanoTime();
        if (now - lastWarning >= WARNING_INTERVAL_NANOS) {
            lastWarning = now;
            log.warn(
                    "ledger: a write was refused because {}; agents' changes are blocked until you {} (no restart needed)",
                    detail,
                    action);
        }
    }

    /** Checkpoints now when a commit failed since the last checkpoint (see {@link Writer#checkpoint}). */
    void checkpointIfWanted() {
        if (checkpointWanted) {
            checkpointWanted = false;
            checkpointQuietly();
        }
    }

    /** {@code PRAGMA wal_checkpoint(TRUNCATE)} outside any transaction; a busy or failing checkpoint is harmless and only logged. */
    void checkpointQuietly() {
        try (java.sql.Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        } catch (SQLException e) {
            log.debug("ledger: checkpoint not done: {}", e.toString());
        }
    }

    /**
     * Transaction control runs as statements compiled once (the statement cache): parsing them again
     * for every batch cost more than running them. sqlite-jdbc resets a statement when its update
     * returns or throws, so none is left half-executed in the cache; one that failed is evicted.
     */
    private void execute(String sql) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.executeUpdate();
        }
    }

    private void rollbackQuietly() {
        try {
            execute("ROLLBACK");
        } catch (SQLException ignored) {
            // SQLite may already have rolled back (e.g. after SQLITE_FULL)
        }
    }

    private static void failAll(List<WriterTask<?>> batch, LomiException error) {
        for (WriterTask<?> task : batch) {
            task.future.completeExceptionally(error);
        }
    }
}
