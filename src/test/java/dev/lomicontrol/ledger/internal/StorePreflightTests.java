package dev.lomicontrol.ledger.internal;

import static dev.lomicontrol.ledger.internal.CrashCopies.DB;
import static dev.lomicontrol.ledger.internal.CrashCopies.ROWS_PER_TX;
import static dev.lomicontrol.ledger.internal.CrashCopies.appendTornFrames;
import static dev.lomicontrol.ledger.internal.CrashCopies.commitRows;
import static dev.lomicontrol.ledger.internal.CrashCopies.fingerprint;
import static dev.lomicontrol.ledger.internal.CrashCopies.flip;
import static dev.lomicontrol.ledger.internal.CrashCopies.frameCount;
import static dev.lomicontrol.ledger.internal.CrashCopies.frameOffset;
import static dev.lomicontrol.ledger.internal.CrashCopies.open;
import static dev.lomicontrol.ledger.internal.CrashCopies.rows;
import static dev.lomicontrol.ledger.internal.CrashCopies.shm;
import static dev.lomicontrol.ledger.internal.CrashCopies.truncate;
import static dev.lomicontrol.ledger.internal.CrashCopies.wal;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Preflight against real SQLite WAL stores. A "crash copy" is the db/-wal/-shm files copied while a
 * connection is still open (what a killed broker leaves behind); the live store is then closed.
 */
class StorePreflightTests {

    @TempDir
    Path tmp;

    private CrashCopies fx;

    @BeforeEach
    void fixtures() {
        fx = new CrashCopies(tmp);
    }

    @Test
    void healthyWalWithCommittedFramesPasses() throws Exception {
        Path db = fx.crashCopy("healthy", 3);

        StorePreflight.Report report = StorePreflight.check(db);

        assertThat(report.problems()).isEmpty();
        assertThat(report.ok()).isTrue();
        assertThat(report.walCommittedFrames()).isPositive().isEqualTo(frameCount(db));
        assertThat(rows(db)).as("SQLite sees every committed row").isEqualTo(3 * ROWS_PER_TX);
    }

    @Test
    void freshOrEmptyDatabaseIsOk() throws Exception {
        Path db = fx.dir("fresh").resolve(DB);
        assertThat(StorePreflight.check(db).ok()).as("missing db").isTrue();

        Files.createFile(db);
        Files.createFile(wal(db));
        StorePreflight.Report report = StorePreflight.check(db);

        assertThat(report.problems()).as("zero-length db and WAL").isEmpty();
        assertThat(report.walCommittedFrames()).isZero();
    }

    @Test
    void damagedDatabaseHeaderIsAProblem() throws Exception {
        assertDbProblem(0, 'X', "SQLite format 3");
        assertDbProblem(16, 0x03, "page size");
        assertDbProblem(18, 7, "format versions");
        assertDbProblem(21, 65, "payload fractions");
    }

    @Test
    void truncatedDatabaseFileIsAProblem() throws Exception {
        Path db = fx.crashCopy("shortdb", 1);
        truncate(db, Files.size(db) - 100);

        assertThat(StorePreflight.check(db).problems())
                .anySatisfy(p -> assertThat(p).contains(db.toString()).contains("multiple of the page size"));
    }

    @Test
    void flippedByteInACommittedFrameIsAProblem() throws Exception {
        Path db = fx.crashCopy("flip", 3);
        int expected = rows(fx.copyOf(db, "flip-intact"));
        long frame = frameCount(db) - 1;
        flip(wal(db), frameOffset(db, frame) + 24 + 100);

        StorePreflight.Report report = StorePreflight.check(db);
        StorePreflight.Report withoutIndex = StorePreflight.check(fx.withoutShm(db, "flip-noshm"));

        assertThat(report.problems())
                .singleElement()
                .asString()
                .contains("WAL " + wal(db))
                .contains("frame " + frame + " checksum mismatch")
                .contains("would be lost");
        assertThat(withoutIndex.ok()).isFalse();
        assertThat(rows(db))
                .as("SQLite silently drops the committed tail")
                .isPositive()
                .isLessThan(expected);
    }

    @Test
    void truncatedWalThatLosesCommittedFramesIsAProblemWhenTheIndexSaysTheyWereCommitted() throws Exception {
        Path midFrame = fx.crashCopy("trunc-mid", 3);
        long last = frameCount(midFrame);
        Path boundary = fx.copyOf(midFrame, "trunc-boundary");
        truncate(wal(midFrame), Files.size(wal(midFrame)) - 100);
        truncate(wal(boundary), frameOffset(boundary, last));

        assertThat(StorePreflight.check(midFrame).problems())
                .singleElement()
                .asString()
                .contains("WAL " + wal(midFrame))
                .contains("committed frame " + last + " missing");
        assertThat(StorePreflight.check(boundary).problems())
                .singleElement()
                .asString()
                .contains("committed frame " + last + " missing");
    }

    @Test
    void tornTailAfterTheLastCommittedFrameIsOnlyANote() throws Exception {
        Path db = fx.crashCopy("torn", 3);
        long committed = frameCount(db);
        appendTornFrames(db);

        StorePreflight.Report report = StorePreflight.check(db);

        assertThat(report.problems()).isEmpty();
        assertThat(report.notes()).anySatisfy(n -> assertThat(n).contains("torn tail at frame " + (committed + 1)));
        assertThat(report.walCommittedFrames()).isEqualTo(committed);
        assertThat(rows(db)).isEqualTo(3 * ROWS_PER_TX);
    }

    @Test
    void walWithoutIndexAndBadChecksumIsRefusedConservatively() throws Exception {
        Path db = fx.crashCopy("noindex", 2);
        appendTornFrames(db);
        Path noShm = fx.withoutShm(db, "noindex-noshm");
        Path foreignShm = fx.copyOf(db, "noindex-foreign");
        flip(shm(foreignShm), 32);
        flip(shm(foreignShm), 48 + 32);

        assertThat(StorePreflight.check(noShm).problems())
                .singleElement()
                .asString()
                .contains("no usable wal-index")
                .contains(wal(noShm).toString());
        assertThat(StorePreflight.check(foreignShm).ok())
                .as("index whose checksum fails")
                .isFalse();
    }

    @Test
    void oldSaltFramesAfterACheckpointRestartEndTheLogValidly() throws Exception {
        Path db = fx.crashCopyAfterRestart("restart");
        long framesInFile = frameCount(db);

        StorePreflight.Report report = StorePreflight.check(db);
        StorePreflight.Report withoutIndex = StorePreflight.check(fx.withoutShm(db, "restart-noshm"));

        assertThat(report.problems()).isEmpty();
        assertThat(withoutIndex.problems()).isEmpty();
        assertThat(report.walCommittedFrames()).isPositive().isLessThan(framesInFile);
        assertThat(rows(db)).isEqualTo(6 * ROWS_PER_TX + 1);
    }

    @Test
    void olderIndexBesideALongerValidWalIsFine() throws Exception {
        Path dir = fx.dir("stale-live");
        Path crash = fx.dir("stale");
        try (Connection c = open(dir.resolve(DB))) {
            commitRows(c, 1);
            Files.copy(shm(dir.resolve(DB)), shm(crash.resolve(DB)));
            commitRows(c, 2);
            Files.copy(dir.resolve(DB), crash.resolve(DB));
            Files.copy(wal(dir.resolve(DB)), wal(crash.resolve(DB)));
        }
        StorePreflight.Report report = StorePreflight.check(crash.resolve(DB));

        assertThat(report.problems()).isEmpty();
        assertThat(report.walCommittedFrames()).isEqualTo(frameCount(crash.resolve(DB)));
    }

    @Test
    void walPageSizeMustMatchTheDatabase() throws Exception {
        Path db = fx.crashCopy("pagesize", 1);
        Path other = fx.dir("pagesize-1k").resolve(DB);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + other);
                Statement s = c.createStatement()) {
            s.execute("PRAGMA page_size=1024");
            s.execute("CREATE TABLE t(x)");
        }
        Files.copy(other, db, StandardCopyOption.REPLACE_EXISTING);

        assertThat(StorePreflight.check(db).problems())
                .anySatisfy(p -> assertThat(p).contains("page size 4096 differs from the database page size 1024"));
    }

    @Test
    void walCommitsBesideAMissingDatabaseAreAProblem() throws Exception {
        Path db = fx.crashCopy("nodb", 1);
        Files.delete(db);

        assertThat(StorePreflight.check(db).problems())
                .anySatisfy(p -> assertThat(p).contains("beside a missing or empty database"));
    }

    @Test
    void tornWalHeaderIsOnlyANoteUnlessTheIndexRecordsCommits() throws Exception {
        Path db = fx.crashCopy("tiny", 1);
        truncate(wal(db), 20);
        Path noShm = fx.withoutShm(db, "tiny-noshm");

        assertThat(StorePreflight.check(db).problems())
                .singleElement()
                .asString()
                .contains("committed frames");
        StorePreflight.Report report = StorePreflight.check(noShm);
        assertThat(report.problems()).isEmpty();
        assertThat(report.notes()).anySatisfy(n -> assertThat(n).contains("empty/torn WAL header"));
    }

    @Test
    void oversizedWalIsAProblem() throws Exception {
        Path db = fx.crashCopy("oversized", 1);
        try (RandomAccessFile f = new RandomAccessFile(wal(db).toFile(), "rw")) {
            f.setLength(129L * 1024 * 1024);
        }
        assertThat(StorePreflight.check(db).problems())
                .singleElement()
                .asString()
                .contains("oversized");
    }

    @Test
    void preflightNeverModifiesAnyFile() throws Exception {
        Path healthy = fx.crashCopy("ro-healthy", 2);
        Path flipped = fx.copyOf(healthy, "ro-flipped");
        flip(wal(flipped), frameOffset(flipped, 1) + 40);
        Path torn = fx.copyOf(healthy, "ro-torn");
        appendTornFrames(torn);
        Path badHeader = fx.copyOf(healthy, "ro-header");
        flip(badHeader, 0);
        Path truncated = fx.copyOf(healthy, "ro-trunc");
        truncate(wal(truncated), Files.size(wal(truncated)) - 7);

        for (Path db : new Path[] {healthy, flipped, torn, badHeader, truncated}) {
            Map<String, String> before = fingerprint(db);
            StorePreflight.check(db);
            assertThat(fingerprint(db)).as(db.toString()).isEqualTo(before);
        }
    }

    private void assertDbProblem(int offset, int value, String expected) throws Exception {
        Path db = fx.crashCopy("hdr" + offset, 1);
        CrashCopies.write(db, offset, value);

        assertThat(StorePreflight.check(db).problems())
                .anySatisfy(p -> assertThat(p).startsWith("database " + db).contains(expected));
    }
}
