package dev.lomicontrol.ledger;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.ledger.internal.LedgerReads;
import dev.lomicontrol.ledger.internal.MaintenanceSql;
import dev.lomicontrol.ledger.internal.ReclaimSql;
import dev.lomicontrol.ledger.internal.SqliteConnections;
import dev.lomicontrol.ledger.internal.StoreDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The admin's maintenance of the ledger (used by the console): status, listing, reconciliation of
 * {@code outcome_unknown} rows, consistent export and deliberate purge. Nothing here re-runs an
 * effect, and nothing is deleted without a fresh export.
 */
public final class LedgerMaintenance {

    private final Ledger ledger;

    LedgerMaintenance(Ledger ledger) {
        this.ledger = ledger;
    }

    public LedgerStatus status() {
        return ledger.read(this::status);
    }

    public List<Operation> operations(Optional<OperationState> state, int limit) {
        return ledger.read(c -> LedgerReads.list(c, state.map(OperationState::wire), limit));
    }

    public List<LedgerEvent> history(OperationId id) {
        return ledger.eventsOf(id);
    }

    /**
     * Records the admin's finding for an {@code outcome_unknown} operation as its own history entry.
     * The state stays {@code outcome_unknown} (what the broker observed); the finding is shown beside
     * it and makes the row purgeable once expired. Never re-runs anything.
     */
    public Operation reconcile(OperationId id, OperationState finding, String note) {
        if (finding != OperationState.SUCCEEDED
                && finding != OperationState.FAILED
                && finding != OperationState.CANCELLED) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "resolution must be succeeded, failed or cancelled");
        }
        if (note == null || note.isBlank()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a note describing what was checked is required");
        }
        return ledger.write(c -> reconcile(c, id, finding, note.strip()), ledger::changed);
    }

    /** Writes a consistent backup to {@code file} (which must not exist) and records it. */
    public ExportResult export(Path file) {
        Path target = file.toAbsolutePath().normalize();
        createEmptyPrivate(target);
        SqliteConnections connections = ledger.store().connections();
        try (Connection connection = connections.open(SqliteConnections.Role.INSPECT);
                PreparedStatement vacuum = connection.prepareStatement("VACUUM INTO ?")) {
            vacuum.setString(1, target.toString());
            vacuum.execute();
        } catch (SQLException | RuntimeException e) {
            throw new LomiException(
                    ErrorCode.STORAGE_UNAVAILABLE,
                    "export to " + target + " failed (the partial file is left for inspection): " + e.getMessage(),
                    e);
        }
        fsync(target);
        StoreDirectory.fsyncDirectory(Objects.requireNonNull(target.getParent(), "an export file has a directory"));
        ExportResult result = describe(target);
        ledger.write(c -> MaintenanceSql.insertExport(c, result, ledger.clock().millis()));
        return result;
    }

    /**
     * Deletes, in one transaction, the settled receipts whose retry epoch can no longer be used
     * (another broker run issued it, its connection ended, or its retention passed) with their
     * history, and the retry epochs that can no longer be used and no kept receipt refers to — see
     * {@link ReclaimSql}. {@code outcome_unknown} rows go only once the admin's finding is recorded;
     * a live connection's rows are kept (the result names the sessions). With {@code before}, only
     * rows settled (epochs: issued) before it. Refuses without {@code confirm}, without an export,
     * and when the latest export's file is missing or changed; deletes only rows that export holds
     * exactly as they are now — rows that changed since are kept ({@code keptChanged}: export again),
     * so agents may keep working while the admin purges.
     */
    public PurgeResult purge(Optional<Instant> before, boolean confirm) {
        if (!confirm) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "purge deletes history; repeat with --confirm");
        }
        LedgerStatus.LastExport export = ledger.read(MaintenanceSql::lastExport)
                .orElseThrow(() -> new LomiException(
                        ErrorCode.INVALID_ARGUMENT, "purge needs a fresh export first (run: ledger export <file>)"));
        ExportedIds exported = exportedIds(Path.of(export.path()));
        PurgeResult result = ledger.write(c -> purge(c, before, exported));
        ledger.checkpoint(); // give the deleted rows' space back: a small store's WAL never reaches the auto-checkpoint
        return result;
    }

    /** A fresh {@code quick_check} and foreign-key check on a reader connection. */
    public String check() {
        return ledger.read(c -> {
            List<String> problems = new ArrayList<>();
            try (Statement statement = c.createStatement()) {
                try (ResultSet rows = statement.executeQuery("PRAGMA quick_check")) {
                    while (rows.next()) {
                        problems.add(rows.getString(1));
                    }
                }
                problems.remove("ok");
                try (ResultSet rows = statement.executeQuery("PRAGMA foreign_key_check")) {
                    while (rows.next()) {
                        problems.add("foreign key violation in " + rows.getString(1) + " row " + rows.getLong(2));
                    }
                }
            }
            return problems.isEmpty() ? "ok" : String.join("; ", problems);
        });
    }

    private LedgerStatus status(Connection c) throws SQLException {
        long now = ledger.clock().millis();
        Map<String, Long> byState = new LinkedHashMap<>();
        for (OperationState state : OperationState.values()) {
            byState.put(
                    state.wire(),
                    MaintenanceSql.count(c, "SELECT count(*) FROM operation WHERE state = ?", state.wire()));
        }
        long oldest = MaintenanceSql.count(c, "SELECT coalesce(min(created_at), -1) FROM operation");
        LedgerProperties properties = ledger.properties();
        ReclaimSql.Scope scope =
                ReclaimSql.Scope.counting(now, ledger.instance().value());
        long[] reclaim = ReclaimSql.counts(c, scope);
        return new LedgerStatus(
                ledger.store().connections().database().toString(),
                ledger.instance().value(),
                MaintenanceSql.count(c, "SELECT count(*) FROM operation"),
                properties.receiptCap(),
                MaintenanceSql.count(c, "SELECT count(*) FROM retry_epoch"),
                properties.epochCap(),
                byState,
                MaintenanceSql.count(
                        c,
                        "SELECT count(*) FROM operation WHERE state IN ('succeeded', 'failed', 'cancelled', 'outcome_unknown') AND retain_until < ?",
                        now),
                MaintenanceSql.count(c, "SELECT count(*) FROM retry_epoch WHERE expires_at < ?", now),
                MaintenanceSql.count(
                        c, "SELECT count(*) FROM operation WHERE state = 'outcome_unknown' AND resolution IS NULL"),
                oldest < 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(oldest)),
                MaintenanceSql.lastExport(c),
                LedgerReads.historyHead(c),
                ledger.store().integrity(),
                !ledger.writerBroken(),
                ledger.commits(),
                ledger.lastStorageRefusal(),
                new LedgerStatus.Reclaim(reclaim[0], reclaim[1], reclaim[2], ReclaimSql.liveHolders(c, scope)));
    }

    private Operation reconcile(Connection c, OperationId id, OperationState finding, String note) throws SQLException {
        Operation current = MaintenanceSql.operation(c, id)
                .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no operation " + id));
        if (current.state() != OperationState.OUTCOME_UNKNOWN) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "only outcome_unknown operations are reconciled; " + id + " is "
                            + current.state().wire());
        }
        if (current.resolution().isPresent()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    id + " was already reconciled as "
                            + current.resolution().get().finding().wire());
        }
        long now = ledger.clock().millis();
        MaintenanceSql.update(
                c,
                "UPDATE operation SET resolution = ?, resolution_note = ?, resolved_at = ?, updated_at = ? WHERE id = ?",
                finding.wire(),
                note,
                now,
                now,
                id.value());
        MaintenanceSql.history(c, id, "admin found " + finding.wire() + ": " + note, now);
        return MaintenanceSql.operation(c, id).orElseThrow();
    }

    private PurgeResult purge(Connection c, Optional<Instant> before, ExportedIds exported) throws SQLException {
        Optional<LedgerStatus.LastExport> export = MaintenanceSql.lastExport(c);
        if (export.isEmpty()) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "purge needs a fresh export first (run: ledger export <file>)");
        }
        Path file = Path.of(export.get().path());
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                || !export.get().sha256().equals(sha256(file))) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "the last export " + file + " is missing or changed; export again first");
        }
        if (!exported.path().equals(file)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "another export was recorded meanwhile; run the purge again");
        }
        long now = ledger.clock().millis();
        String instance = ledger.instance().value();
        long cutoff = before.map(Instant::toEpochMilli).orElse(Long.MAX_VALUE);
        long[] deleted = ReclaimSql.delete(
                c,
                new ReclaimSql.Scope(
                        now,
                        instance,
                        cutoff,
                        exported.operations(),
                        exported.epochs(),
                        export.get().historyHead()));
        ledger.writes().recount(c);
        ReclaimSql.Scope left = ReclaimSql.Scope.counting(now, instance);
        long[] remaining =
                ReclaimSql.counts(c, new ReclaimSql.Scope(now, instance, cutoff, null, null, Long.MAX_VALUE));
        return new PurgeResult(
                deleted[0],
                deleted[1],
                deleted[2],
                ReclaimSql.counts(c, left)[2],
                remaining[0],
                ReclaimSql.liveHolders(c, left));
    }

    /** The ids an export file holds, as JSON arrays (the purge deletes nothing the export lacks). */
    private record ExportedIds(Path path, String operations, String epochs) {}

    private ExportedIds exportedIds(Path file) {
        try (Connection copy = new SqliteConnections(
                        file,
                        ledger.properties().busyTimeout(),
                        ledger.properties().maxPageCount())
                .open(SqliteConnections.Role.INSPECT)) {
            return new ExportedIds(
                    file,
                    MaintenanceSql.idsAsJson(copy, "SELECT id FROM operation"),
                    MaintenanceSql.idsAsJson(copy, "SELECT id FROM retry_epoch"));
        } catch (SQLException | RuntimeException e) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "cannot read the last export " + file + " (" + e.getMessage() + "); export again first",
                    e);
        }
    }

    private ExportResult describe(Path file) {
        try (Connection copy = new SqliteConnections(
                        file,
                        ledger.properties().busyTimeout(),
                        ledger.properties().maxPageCount())
                .open(SqliteConnections.Role.INSPECT)) {
            long operations = MaintenanceSql.count(copy, "SELECT count(*) FROM operation");
            long head = LedgerReads.historyHead(copy);
            return new ExportResult(file, sha256(file), Files.size(file), operations, head);
        } catch (SQLException | IOException e) {
            throw new LomiException(
                    ErrorCode.STORAGE_UNAVAILABLE, "cannot verify export " + file + ": " + e.getMessage(), e);
        }
    }

    private static void createEmptyPrivate(Path file) {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(StoreDirectory.FILE_MODE));
        } catch (IOException e) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "cannot create export file " + file + " (it must not exist): " + e, e);
        }
    }

    private static void fsync(Path file) {
        try (FileChannel channel = FileChannel.open(file, Set.of(StandardOpenOption.WRITE))) {
            channel.force(true);
        } catch (IOException e) {
            throw new LomiException(
                    ErrorCode.STORAGE_UNAVAILABLE, "cannot fsync export " + file + ": " + e.getMessage(), e);
        }
    }

    static String sha256(Path file) {
        try (InputStream in = new DigestInputStream(
                Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of()
                    .formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new LomiException(ErrorCode.STORAGE_UNAVAILABLE, "cannot hash " + file + ": " + e.getMessage(), e);
        }
    }
}
