package dev.lomicontrol.ledger;

import static dev.lomicontrol.ledger.LedgerFixture.reserved;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.ledger.internal.StoreDirectory;
import dev.lomicontrol.ledger.internal.StoreOpener;
import dev.lomicontrol.testing.MigrationFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store written by V1–V10 opens under V11 with every receipt, epoch, history row and export record
 * as it was: retries of its receipts are still recognised, history numbers continue above
 * everything V1's AUTOINCREMENT handed out, and nothing is replayed.
 */
class LedgerUpgradeTests {

    @TempDir
    Path temp;

    static final String OLD_INSTANCE = "00000000000000000000000000000001";
    static final String SESSION = "0123456789abcdef0123456789abcdef";
    static final String EPOCH = "abcdefabcdefabcdefabcdefabcdefabcdefabcd";
    static final String PURGED_EPOCH = "1111111111111111111111111111111111111111";

    @Test
    void aStoreWrittenBeforeV11KeepsItsReceiptsEpochsAndHistoryAndNumbersOnAboveItsOldHighWaterMark() throws Exception {
        LedgerFixture fixture = new LedgerFixture(temp);
        Path db = writeV10Store(fixture.store);
        Map<String, List<Map<String, Object>>> before = dump(db);

        try (Ledger ledger = fixture.open()) {
            Map<String, List<Map<String, Object>>> after = dump(db);
            assertThat(after.get("operation"))
                    .as("V12's error_message is empty on every row written before it")
                    .allSatisfy(row -> assertThat(row.remove("error_message")).isNull());
            assertThat(after.get("retry_epoch")).isEqualTo(before.get("retry_epoch"));
            assertThat(after.get("ledger_export")).isEqualTo(before.get("ledger_export"));
            assertThat(after.get("operation"))
                    .as("settled receipts unchanged; the unfinished one settled by recovery, as at every open")
                    .hasSize(3)
                    .containsAll(before.get("operation").subList(0, 2));
            assertThat(after.get("operation").get(2))
                    .containsEntry("id", runningId())
                    .containsEntry("state", "outcome_unknown")
                    .containsEntry("effect_state", "unknown");
            assertThat(after.get("operation_history").subList(0, 5))
                    .as("every history row with its number")
                    .isEqualTo(before.get("operation_history"));
            assertThat(after.get("operation_history").get(5))
                    .as("recovery's row numbered above V1's high-water mark 7, not above the highest row left (5)")
                    .containsEntry("seq", 8L)
                    .containsEntry("operation_id", runningId())
                    .containsEntry("actor", "recovery");

            SessionId session = new SessionId(SESSION);
            assertThat(ledger.getByKey(
                            session,
                            new RetryEpochId(EPOCH),
                            LedgerFixture.TOOL,
                            new RequestKey("k-done"),
                            Optional.of(LedgerFixture.PROJECT)))
                    .as("a receipt is found by its key as before")
                    .hasValueSatisfying(operation -> {
                        assertThat(operation.id()).isEqualTo(new OperationId(doneId()));
                        assertThat(operation.state()).isEqualTo(OperationState.SUCCEEDED);
                        assertThat(operation.result()).contains("{\"ok\":true}");
                    });
            Reservation retry = ledger.reserve(new ReserveRequest(
                    session,
                    new RetryEpochId(EPOCH),
                    LedgerFixture.PROJECT,
                    LedgerFixture.TOOL,
                    new RequestKey("k-done"),
                    LedgerFixture.json("{}"),
                    new Target("ws-1", "file:a.txt", "", "rev-1")));
            assertThat(retry)
                    .as("the earlier run's epoch answers as it did before the upgrade; nothing is written")
                    .isInstanceOfSatisfying(
                            Reservation.Refused.class,
                            refused -> assertThat(refused.code()).isEqualTo(ErrorCode.RETRY_WINDOW_EXPIRED));

            RetryEpoch fresh = ledger.issueEpoch(session);
            Operation next = reserved(ledger.reserve(LedgerFixture.request(session, fresh, "k-done", "{}")));
            assertThat(ledger.eventsOf(next.id()).get(0).sequence()).isEqualTo(9);
            assertThat(ledger.maintenance().check()).isEqualTo("ok");
        }

        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement()) {
            try (ResultSet rs =
                    s.executeQuery("SELECT count(*) FROM sqlite_sequence WHERE name = 'operation_history'")) {
                rs.next();
                assertThat(rs.getInt(1)).as("no AUTOINCREMENT counter any more").isZero();
            }
            try (ResultSet rs = s.executeQuery("PRAGMA foreign_key_check")) {
                assertThat(rs.next())
                        .as("every history row still refers to its receipt")
                        .isFalse();
            }
        }
    }

    private static String doneId() {
        return "d".repeat(40);
    }

    private static String runningId() {
        return "e".repeat(40);
    }

    /**
     * A V10 store as the broker before V11 left it: an earlier run's epochs, a succeeded receipt with
     * its result, a cancelled one, one still running, an export record, and a purged receipt whose
     * history numbers (6, 7) are gone from the table but not from AUTOINCREMENT's high-water mark.
     */
    private static Path writeV10Store(Path store) throws Exception {
        StoreDirectory.prepare(store);
        Path db = store.resolve(StoreOpener.DATABASE);
        byte[] fingerprint = new byte[32];
        fingerprint[0] = 7;
        MigrationFixture.at(db).migrateTo("10").runWithForeignKeys(s -> {
            Connection c = s.getConnection();
            s.execute("INSERT INTO ledger_instance (id, opened_at, pid) VALUES ('" + OLD_INSTANCE + "', 1000, 42)");
            for (String epoch : List.of(EPOCH, PURGED_EPOCH)) {
                s.execute("INSERT INTO retry_epoch (id, session_id, instance_id, issued_at, expires_at) VALUES ('"
                        + epoch + "', '" + SESSION + "', '" + OLD_INSTANCE + "', 1000, 86401000)");
            }
            insertOperation(c, doneId(), EPOCH, "k-done", fingerprint, "succeeded", "complete", "{\"ok\":true}");
            insertOperation(c, "c".repeat(40), EPOCH, "k-cancelled", fingerprint, "cancelled", "none", null);
            insertOperation(c, runningId(), EPOCH, "k-running", fingerprint, "running", "none", null);
            insertOperation(c, "f".repeat(40), PURGED_EPOCH, "k-purged", fingerprint, "succeeded", "complete", null);
            history(c, doneId(), "queued", "none");
            history(c, doneId(), "succeeded", "complete");
            history(c, "c".repeat(40), "cancelled", "none");
            history(c, runningId(), "queued", "none");
            history(c, runningId(), "running", "none");
            history(c, "f".repeat(40), "queued", "none");
            history(c, "f".repeat(40), "succeeded", "complete");
            s.execute("DELETE FROM operation_history WHERE operation_id = '" + "f".repeat(40) + "'");
            s.execute("DELETE FROM operation WHERE id = '" + "f".repeat(40) + "'");
            s.execute("DELETE FROM retry_epoch WHERE id = '" + PURGED_EPOCH + "'");
            s.execute(
                    "INSERT INTO ledger_export (path, sha256, history_head, operations, at) VALUES ('/backup/x.sqlite3',"
                            + " 'abc', 7, 4, 5000)");
            try (ResultSet rs = s.executeQuery("SELECT seq FROM sqlite_sequence WHERE name = 'operation_history'")) {
                rs.next();
                assertThat(rs.getLong(1)).as("V1's high-water mark").isEqualTo(7);
            }
        });
        Files.setPosixFilePermissions(db, StoreDirectory.FILE_MODE);
        return db;
    }

    private static void insertOperation(
            Connection c,
            String id,
            String epoch,
            String key,
            byte[] fingerprint,
            String state,
            String effect,
            String result)
            throws SQLException {
        try (PreparedStatement p = c.prepareStatement(
                "INSERT INTO operation (id, session_id, retry_epoch, project_id, tool, request_key, fingerprint, workspace_id,"
                        + " target, state, effect_state, result, created_at, updated_at, completed_at, retain_until)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, 'ws-1', '{\"workspaceId\":\"ws-1\"}', ?, ?, ?, 2000, 3000, ?, 86401000)")) {
            p.setString(1, id);
            p.setString(2, SESSION);
            p.setString(3, epoch);
            p.setString(4, LedgerFixture.PROJECT.value());
            p.setString(5, LedgerFixture.TOOL.value());
            p.setString(6, key);
            p.setBytes(7, fingerprint);
            p.setString(8, state);
            p.setString(9, effect);
            p.setString(10, result);
            if (state.equals("running")) {
                p.setNull(11, java.sql.Types.INTEGER);
            } else {
                p.setLong(11, 3000);
            }
            p.executeUpdate();
        }
    }

    private static void history(Connection c, String operation, String state, String effect) throws SQLException {
        try (PreparedStatement p =
                c.prepareStatement("INSERT INTO operation_history (operation_id, kind, state, effect_state, actor, at)"
                        + " VALUES (?, 'state', ?, ?, 'broker', 2000)")) {
            p.setString(1, operation);
            p.setString(2, state);
            p.setString(3, effect);
            p.executeUpdate();
        }
    }

    /** Every row of the ledger's tables, column by column (BLOBs as hex), in key order. */
    private static Map<String, List<Map<String, Object>>> dump(Path db) throws SQLException {
        Map<String, String> tables = new LinkedHashMap<>();
        tables.put("retry_epoch", "SELECT * FROM retry_epoch ORDER BY id");
        tables.put("operation", "SELECT * FROM operation ORDER BY created_at, request_key");
        tables.put("operation_history", "SELECT * FROM operation_history ORDER BY seq");
        tables.put("ledger_export", "SELECT * FROM ledger_export ORDER BY id");
        Map<String, List<Map<String, Object>>> out = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement()) {
            for (Map.Entry<String, String> table : tables.entrySet()) {
                List<Map<String, Object>> rows = new ArrayList<>();
                try (ResultSet rs = s.executeQuery(table.getValue())) {
                    ResultSetMetaData meta = rs.getMetaData();
                    while (rs.next()) {
                        Map<String, Object> row = new LinkedHashMap<>();
                        for (int i = 1; i <= meta.getColumnCount(); i++) {
                            Object value = rs.getObject(i);
                            if (value instanceof Integer) {
                                value = ((Integer) value).longValue();
                            }
                            row.put(
                                    meta.getColumnName(i),
                                    value instanceof byte[] ? HexFormat.of().formatHex((byte[]) value) : value);
                        }
                        rows.add(row);
                    }
                }
                out.put(table.getKey(), rows);
            }
        }
        return out;
    }
}
