package dev.lomicontrol.ledger;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.InstanceId;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.ledger.internal.LedgerDataSource;
import dev.lomicontrol.ledger.internal.LedgerReads;
import dev.lomicontrol.ledger.internal.LedgerWrites;
import dev.lomicontrol.ledger.internal.ReaderPool;
import dev.lomicontrol.ledger.internal.StoreOpener;
import dev.lomicontrol.ledger.internal.Writer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The durable operations ledger (SPEC §6): the one entry point to receipts, retry epochs, the
 * state machine and the event feed. Every write goes through one group-commit writer and is durable
 * (WAL, synchronous=FULL) before the call returns; reads use separate reader connections.
 *
 * <p>Opening a store checks it before trusting it, takes the owner lock, starts a new broker
 * instance (old retry epochs stop working) and turns every unfinished row into
 * {@code outcome_unknown/unknown} — nothing is ever replayed.
 */
public final class Ledger implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Ledger.class);

    private final StoreOpener.OpenStore store;
    private final Writer writer;
    private final ReaderPool readers;
    private final LedgerJdbc jdbc;
    private final LedgerWrites writes;
    private final InstanceId instance;
    private final Clock clock;
    private final LedgerProperties properties;
    private final int recovered;
    private final List<java.util.function.Consumer<Operation>> listeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    private Ledger(StoreOpener.OpenStore store, LedgerProperties properties, Clock clock, RandomGenerator random) {
        this.store = store;
        this.properties = properties;
        this.clock = clock;
        this.instance = InstanceId.random(random);
        this.writer = new Writer(store.writer(), properties.maxBatch());
        this.writes = new LedgerWrites(clock, random, properties, instance);
        this.readers = new ReaderPool(store.connections(), properties.readers());
        this.jdbc = new LedgerJdbc(new LedgerDataSource(writer, readers.dataSource()));
        this.recovered = writer.submit(writes::recover);
    }

    /** Opens (creating if missing) the store in {@code storeRoot}, or refuses with STORAGE_UNAVAILABLE. */
    public static Ledger open(Path storeRoot, LedgerProperties properties, Clock clock, RandomGenerator random) {
        StoreOpener.OpenStore store = StoreOpener.open(storeRoot, properties, "broker");
        try {
            Ledger ledger = new Ledger(store, properties, clock, random);
            log.info(
                    "ledger open at {} (instance {}, integrity {}, {} unfinished operations marked outcome_unknown)",
                    store.connections().database(),
                    ledger.instance,
                    store.integrity(),
                    ledger.recovered);
            return ledger;
        } catch (RuntimeException e) {
            closeStore(store);
            throw e;
        }
    }

    public InstanceId instance() {
        return instance;
    }

    /** Operations that were unfinished when this store was last closed or killed. */
    public int recoveredAtOpen() {
        return recovered;
    }

    /** A new retry epoch for {@code session}, valid for the configured lifetime on this instance only. */
    public RetryEpoch issueEpoch(SessionId session) {
        return writer.submit(c -> writes.issueEpoch(c, session));
    }

    /**
     * Why {@code session} cannot use {@code epoch} now (another connection's, an earlier broker run's,
     * ended or expired) — the RETRY_WINDOW_EXPIRED message — or empty when it can. Read-only.
     */
    public Optional<String> epochProblem(SessionId session, RetryEpochId epoch) {
        return read(c -> writes.epochProblem(c, epoch, Optional.of(session)));
    }

    /** Reserves a receipt before any effect; see {@link Reservation} for the outcomes. */
    public Reservation reserve(ReserveRequest request) {
        JsonNode identity;
        byte[] fingerprint;
        try {
            identity = fingerprintInput(request.input(), request.target());
            fingerprint = CanonicalJson.sha256(identity);
        } catch (LomiException e) {
            return new Reservation.Refused(e.code(), e.getMessage());
        }
        String target = CanonicalJson.string(identity.get("target"));
        try {
            return writer.submit(
                    writes.reservations(), LedgerWrites.reservation(request, fingerprint, target), reserved -> {
                        if (reserved instanceof Reservation.Reserved fresh) {
                            changed(fresh.operation());
                        }
                    });
        } catch (LomiException e) {
            return new Reservation.Refused(e.code(), e.getMessage());
        }
    }

    /** Moves to running; the effect may be dispatched only after this returns {@link TransitionResult.Moved}. */
    public TransitionResult begin(OperationId id) {
        return transition(id, OperationState.RUNNING, EffectState.NONE, Optional.empty(), Optional.empty());
    }

    public TransitionResult transition(
            OperationId id,
            OperationState to,
            EffectState effect,
            Optional<String> resultJson,
            Optional<OperationError> error) {
        return writer.submit(c -> writes.transition(c, id, to, effect, resultJson, error, "broker", null), this::moved);
    }

    public CancelResult cancel(SessionId session, OperationId id) {
        return writer.submit(c -> writes.cancel(c, session, id), result -> {
            if (!(result instanceof CancelResult.Unchanged)) {
                changed(result.operation());
            }
        });
    }

    /**
     * Settles all unfinished work of a session that lost its authority (revocation, disconnect) and
     * marks its retry epochs ended. The mark is committed first and on its own (an in-place update),
     * so even a store too full to record the settlement still lets the admin purge the session's
     * settled receipts.
     */
    public List<Operation> settleLost(SessionId session, String reason) {
        writer.submit(c -> writes.endEpochs(c, session));
        return writer.submit(c -> writes.settleLost(c, session, reason), settled -> settled.forEach(this::changed));
    }

    /** Settles one operation whose deadline passed. */
    public Operation settleLost(OperationId id, String reason) {
        return writer.submit(c -> writes.settleLost(c, id, reason), this::changed);
    }

    /**
     * Registers {@code listener}, told about every operation whose row changed (reserved, moved,
     * cancelled, settled, reconciled) as it now stands, on the thread that committed it (the writer
     * thread, or a caller that wrote alone) right after the change
     * committed and before the writing caller is released — so a waiter that registered first, then
     * read the row, never misses a change. It must not block (wake a waiter, nothing more). Returns
     * the handle that unregisters it.
     */
    public Runnable onChange(java.util.function.Consumer<Operation> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /** Tells the listeners (on the committing thread, after the commit) that {@code operation} changed. */
    void changed(Operation operation) {
        for (java.util.function.Consumer<Operation> listener : listeners) {
            try {
                listener.accept(operation);
            } catch (RuntimeException e) {
                log.warn("ledger: a change listener failed: {}", e.toString());
            }
        }
    }

    private void moved(TransitionResult result) {
        if (result instanceof TransitionResult.Moved moved) {
            changed(moved.operation());
        }
    }

    public Optional<Operation> get(SessionId session, OperationId id) {
        return read(c -> LedgerReads.get(c, session, id));
    }

    public Optional<Operation> getByKey(
            SessionId session, RetryEpochId epoch, ToolName tool, RequestKey key, Optional<ProjectId> project) {
        return read(c -> LedgerReads.getByKey(c, session, epoch, tool, key, project));
    }

    /** The event feed: history rows after {@code afterSequence}, oldest first. */
    public List<LedgerEvent> events(Optional<String> workspaceId, long afterSequence, int limit) {
        return read(c -> LedgerReads.events(c, workspaceId, afterSequence, limit));
    }

    public List<LedgerEvent> eventsOf(OperationId id) {
        return read(c -> LedgerReads.eventsOf(c, id));
    }

    /**
     * Receipts and retry epochs against their caps as the writer last counted them: cheap enough
     * for every call (the agents' hint that new work may soon be refused), exact after each write.
     */
    public Headroom headroom() {
        return writes.caps().headroom();
    }

    public LedgerMaintenance maintenance() {
        return new LedgerMaintenance(this);
    }

    /** Reader connections only ({@code query_only}). */
    public DataSource readerDataSource() {
        return readers.dataSource();
    }

    /**
     * Spring Data JDBC on this store: repositories that write inside {@link #write} (the single
     * writer's transaction) and read from readers anywhere else (ADR 0012).
     */
    public LedgerJdbc jdbc() {
        return jdbc;
    }

    @Override
    public void close() {
        writer.close();
        readers.close();
        closeStore(store);
    }

    /** Copies the WAL into the database and truncates it (after a purge); returns when done. */
    void checkpoint() {
        writer.checkpoint();
    }

    /**
     * Runs {@code work} durably in the single writer's transaction (its own savepoint); returns after
     * COMMIT. A runtime exception from {@code work} rolls back only its own changes; an SQL error
     * (also one a repository wrapped) fails the batch with STORAGE_UNAVAILABLE. Repositories of
     * {@link #jdbc()} called inside {@code work} write in the same savepoint.
     */
    public <T> T write(SqlWork<T> work) {
        return writer.submit(work::run);
    }

    /** As {@link #write(SqlWork)} for work that yields no value. */
    public void change(SqlChange work) {
        writer.submit(connection -> {
            work.run(connection);
            return null;
        });
    }

    /** As {@link #write}, then (after the commit, on the committing thread) {@code committed} gets the value. */
    <T> T write(SqlWork<T> work, java.util.function.Consumer<? super T> committed) {
        return writer.submit(work::run, committed);
    }

    /** Runs {@code work} on a reader connection ({@code query_only}). */
    public <T> T read(SqlWork<T> work) {
        try (Connection connection = readers.dataSource().getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new LomiException(ErrorCode.STORAGE_UNAVAILABLE, "ledger read failed: " + e.getMessage(), e);
        }
    }

    LedgerWrites writes() {
        return writes;
    }

    StoreOpener.OpenStore store() {
        return store;
    }

    LedgerProperties properties() {
        return properties;
    }

    Clock clock() {
        return clock;
    }

    boolean writerBroken() {
        return writer.isBroken();
    }

    long commits() {
        return writer.commits();
    }

    /** Writes waiting for the writer thread right now (tests). */
    int queuedWrites() {
        return writer.queued();
    }

    Optional<LedgerStatus.StorageRefusal> lastStorageRefusal() {
        return writer.lastRefusal()
                .map(r -> new LedgerStatus.StorageRefusal(r.at(), r.detail(), writer.commits() > r.commitsThen()));
    }

    private static JsonNode fingerprintInput(JsonNode input, Target target) {
        ObjectNode identity = JsonNodeFactory.instance.objectNode();
        identity.set("input", input == null ? JsonNodeFactory.instance.nullNode() : input);
        ObjectNode resolved = identity.putObject("target");
        resolved.put("workspaceId", target.workspaceId());
        resolved.put("resourceId", target.resourceId());
        resolved.put("generation", target.generation());
        resolved.put("revision", target.revision());
        return identity;
    }

    private static void closeStore(StoreOpener.OpenStore store) {
        try {
            store.writer().close();
        } catch (SQLException e) {
            log.warn("closing the ledger writer connection failed: {}", e.getMessage());
        }
        store.lock().close();
    }
}
