package dev.lomicontrol.ledger;

import static dev.lomicontrol.ledger.LedgerFixture.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.SessionId;
import dev.lomicontrol.testing.ChildJvm;
import dev.lomicontrol.testing.Files2;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store is checked before it is trusted; a damaged, foreign or read-only store is refused and left exactly as it was. */
class LedgerStoreSafetyTests {

    @TempDir
    Path temp;

    @Test
    void aSecondOwnerInTheSameProcessIsRefused() {
        LedgerFixture fixture = new LedgerFixture(temp);
        try (Ledger first = fixture.open()) {
            assertRefused(fixture::open, "already open in this process");
        }
        fixture.open().close();
    }

    @Test
    void aSecondOwnerProcessIsRefusedAndToldWhoHoldsTheStore() throws Exception {
        LedgerFixture fixture = new LedgerFixture(temp);
        fixture.open().close();
        Process holder = ChildJvm.start(OwnerHolder.class, List.of(fixture.store.toString()));
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            String ready = out.readLine();
            assertThat(ready).startsWith("ready ");
            String pid = ready.substring("ready ".length());

            assertRefused(fixture::open, "owned by another process (pid=" + pid);
        } finally {
            holder.getOutputStream().close();
            assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        fixture.open().close();
    }

    @Test
    void aCorruptDatabasePageIsPreservedByteForByteAndStartupIsRefused() throws Exception {
        LedgerFixture fixture = populatedStore(20);
        Path db = fixture.store.resolve("control.sqlite3");
        long pageSize = 4096;
        try (RandomAccessFile file = new RandomAccessFile(db.toFile(), "rw")) {
            assertThat(file.length()).isGreaterThan(3 * pageSize);
            file.seek(pageSize);
            file.write(new byte[] {(byte) 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f});
        }

        assertRefusedAndUntouched(fixture.store, fixture::open, "quick_check");
    }

    @Test
    void aDamagedDatabaseHeaderIsPreservedAndStartupIsRefused() throws Exception {
        LedgerFixture fixture = populatedStore(3);
        Path db = fixture.store.resolve("control.sqlite3");
        try (RandomAccessFile file = new RandomAccessFile(db.toFile(), "rw")) {
            file.seek(0);
            file.write("SQLite format 4".getBytes(StandardCharsets.US_ASCII));
        }

        assertRefusedAndUntouched(fixture.store, fixture::open, "integrity preflight");
    }

    @Test
    void aCorruptCommittedWalFrameIsPreservedAndCannotSilentlyRollBackHistory() throws Exception {
        Path crashed = crashImage(10);
        Path wal = crashed.resolve("control.sqlite3-wal");
        assertThat(Files.size(wal)).isGreaterThan(32 + 24 + 4096);
        try (RandomAccessFile file = new RandomAccessFile(wal.toFile(), "rw")) {
            file.seek(32 + 24 + 100);
            int b = file.read();
            file.seek(32 + 24 + 100);
            file.write(b ^ 0xff);
        }

        assertOpenRefusedAndUntouched(crashed, "checksum");
    }

    @Test
    void aTruncatedWalThatLosesCommittedFramesIsPreservedAndStartupIsRefused() throws Exception {
        Path crashed = crashImage(10);
        Path wal = crashed.resolve("control.sqlite3-wal");
        try (RandomAccessFile file = new RandomAccessFile(wal.toFile(), "rw")) {
            file.setLength(file.length() - 2 * (24 + 4096));
        }

        assertOpenRefusedAndUntouched(crashed, "WAL");
    }

    @Test
    void anIntactCrashImageOpensAndKeepsEveryCommittedReservation() throws Exception {
        Path crashed = crashImage(10);
        try (Ledger ledger = Ledger.open(
                crashed, LedgerProperties.defaults(), java.time.Clock.systemUTC(), new java.security.SecureRandom())) {
            assertThat(ledger.maintenance().status().receipts()).isEqualTo(10);
            assertThat(ledger.recoveredAtOpen()).isEqualTo(10);
            assertThat(ledger.maintenance().status().byState().get("outcome_unknown"))
                    .isEqualTo(10);
        }
    }

    @Test
    void aFutureSchemaIsPreservedAndStartupIsRefused() throws Exception {
        LedgerFixture fixture = populatedStore(2);
        Path db = fixture.store.resolve("control.sqlite3");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement()) {
            s.execute(
                    "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum, installed_by, execution_time, success)"
                            + " VALUES (99, '99', 'from the future', 'SQL', 'V99__future.sql', 0, 'test', 0, 1)");
        }

        assertRefusedAndUntouched(fixture.store, fixture::open, "newer than this broker understands");
    }

    @Test
    void aStoreDirectoryOpenToOthersOrALinkedFileIsRefusedUnchanged() throws Exception {
        LedgerFixture fixture = populatedStore(1);
        Files.setPosixFilePermissions(fixture.store, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertRefused(fixture::open, "expected rwx------");
        Files.setPosixFilePermissions(fixture.store, PosixFilePermissions.fromString("rwx------"));

        Path db = fixture.store.resolve("control.sqlite3");
        Files.createLink(temp.resolve("second-name"), db);
        assertRefused(fixture::open, "hard links");
        Files.delete(temp.resolve("second-name"));
        fixture.open().close();
    }

    @Test
    void aFullStoreRefusesTheReservationWithStorageUnavailableAndLeavesNoPartialReceipt() throws Exception {
        LedgerFixture fixture = populatedStore(1);
        long pages;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + fixture.store.resolve("control.sqlite3"));
                Statement s = c.createStatement();
                var rs = s.executeQuery("PRAGMA page_count")) {
            pages = rs.getLong(1);
        }
        try (Ledger ledger = fixture.open(LedgerProperties.defaults().withMaxPageCount(pages + 2))) {
            SessionId session = fixture.session();
            RetryEpoch epoch = ledger.issueEpoch(session);
            String bulky = "{\"text\":\"" + "x".repeat(3000) + "\"}";
            Reservation last = null;
            int reserved = 0;
            for (int i = 0; i < 200; i++) {
                last = ledger.reserve(request(session, epoch, "k-" + i, bulky));
                if (!(last instanceof Reservation.Reserved)) {
                    break;
                }
                reserved++;
            }
            assertThat(last)
                    .isInstanceOfSatisfying(
                            Reservation.Refused.class,
                            refused -> assertThat(refused.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE));
            LedgerStatus status = ledger.maintenance().status();
            assertThat(status.receipts()).as("no partial receipt").isEqualTo(1 + reserved);
            assertThat(status.historyHead()).isEqualTo(1 + 1 + reserved);
            assertThat(status.writerHealthy()).isTrue();
        }
        try (Ledger ledger = fixture.open()) {
            SessionId session = fixture.session();
            RetryEpoch epoch = ledger.issueEpoch(session);
            assertThat(ledger.reserve(request(session, epoch, "after", "{}")))
                    .as("works again once there is room")
                    .isInstanceOf(Reservation.Reserved.class);
        }
    }

    @Test
    void aRealFullDiskRefusesWithStorageUnavailableAndRecoversWhenSpaceIsFreed() throws Exception {
        try (SmallTmpfs small = SmallTmpfs.mount(temp.resolve("small"), "2m")) {
            LedgerFixture fixture = new LedgerFixture(small.mount);
            try (Ledger ledger = fixture.open()) {
                SessionId session = fixture.session();
                RetryEpoch epoch = ledger.issueEpoch(session);
                assertThat(ledger.reserve(request(session, epoch, "before", "{}")))
                        .isInstanceOf(Reservation.Reserved.class);
                Path filler = small.fill(64);
                String bulky = "{\"text\":\"" + "x".repeat(8000) + "\"}";
                Reservation refused = null;
                for (int i = 0; i < 500 && refused == null; i++) {
                    Reservation r = ledger.reserve(request(session, epoch, "fill-" + i, bulky));
                    refused = r instanceof Reservation.Refused ? r : null;
                }
                assertThat(refused)
                        .isInstanceOfSatisfying(
                                Reservation.Refused.class,
                                r -> assertThat(r.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE));
                long receipts = ledger.maintenance().status().receipts();
                assertThat(ledger.maintenance().status().historyHead())
                        .as("no partial receipt")
                        .isEqualTo(receipts);
                assertThat(ledger.maintenance().status().lastStorageRefusal())
                        .as("the admin's status names the refusal")
                        .hasValueSatisfying(r -> {
                            assertThat(r.detail()).contains("full");
                            assertThat(r.recovered()).isFalse();
                        });

                Files.delete(filler);
                assertThat(ledger.reserve(request(session, epoch, "after", "{}")))
                        .as("recovers once space is freed")
                        .isInstanceOf(Reservation.Reserved.class);
                assertThat(ledger.maintenance().status().lastStorageRefusal())
                        .hasValueSatisfying(r -> assertThat(r.recovered()).isTrue());
            }
        }
    }

    @Test
    void aReadOnlyStoreIsRefusedWithoutChangingAnything() throws Exception {
        try (SmallTmpfs ro = SmallTmpfs.mount(temp.resolve("ro"), "8m")) {
            LedgerFixture fixture = new LedgerFixture(ro.mount);
            try (Ledger ledger = fixture.open()) {
                SessionId session = fixture.session();
                ledger.reserve(request(session, ledger.issueEpoch(session), "k", "{}"));
            }
            Map<String, String> before = Files2.hashes(fixture.store, "");
            ro.remountReadOnly();

            assertRefused(fixture::open, "read-only");
            assertThat(Files2.hashes(fixture.store, "")).isEqualTo(before);
        }
    }

    /** A store with {@code receipts} queued receipts, closed cleanly. */
    private LedgerFixture populatedStore(int receipts) {
        LedgerFixture fixture = new LedgerFixture(temp);
        try (Ledger ledger = fixture.open()) {
            SessionId session = fixture.session();
            RetryEpoch epoch = ledger.issueEpoch(session);
            for (int i = 0; i < receipts; i++) {
                ledger.reserve(request(session, epoch, "k-" + i, "{}"));
            }
        }
        return fixture;
    }

    /** What a killed broker leaves: the store's files copied while the ledger is open with committed, uncheckpointed WAL frames. */
    private Path crashImage(int receipts) throws IOException {
        LedgerFixture fixture = new LedgerFixture(temp);
        Path image = Files.createDirectories(
                temp.resolve("crashed"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (Ledger ledger = fixture.open()) {
            SessionId session = fixture.session();
            RetryEpoch epoch = ledger.issueEpoch(session);
            for (int i = 0; i < receipts; i++) {
                ledger.reserve(request(session, epoch, "k-" + i, "{}"));
            }
            try (Stream<Path> files = Files.list(fixture.store)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    if (file.getFileName().toString().startsWith("control.sqlite3")) {
                        Files.copy(file, image.resolve(file.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
            }
        }
        return image;
    }

    /** Opening the store {@code crashed} is refused naming {@code messagePart}, and its database is left as it was. */
    private static void assertOpenRefusedAndUntouched(Path crashed, String messagePart) {
        assertRefusedAndUntouched(
                crashed,
                () -> Ledger.open(
                        crashed,
                        LedgerProperties.defaults(),
                        java.time.Clock.systemUTC(),
                        new java.security.SecureRandom()),
                messagePart);
    }

    /** {@code open} is refused naming {@code messagePart}, and the database in {@code store} is left as it was. */
    private static void assertRefusedAndUntouched(
            Path store, org.assertj.core.api.ThrowableAssert.ThrowingCallable open, String messagePart) {
        Map<String, String> before = Files2.hashes(store, "control.sqlite3");
        assertRefused(open, messagePart);
        assertThat(Files2.hashes(store, "control.sqlite3")).isEqualTo(before);
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable open, String messagePart) {
        assertThatThrownBy(open).isInstanceOfSatisfying(LomiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.STORAGE_UNAVAILABLE);
            assertThat(e.getMessage()).contains(messagePart);
        });
    }
}
