package dev.lomicontrol.ledger.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The decision rule of {@link StorePreflight} for the {@code -wal} file, given the {@code -shm}
 * wal-index a crash left behind.
 *
 * <p>With a usable wal-index (salts match the WAL header) every frame 1..mxFrame must be present and
 * valid; an invalid tail after mxFrame was never acknowledged and is only a note. Without one, any
 * torn or corrupt frame inside the current salt generation is a problem, because nothing proves it
 * was uncommitted. Contract: reads only; appends findings to the given lists.
 */
final class WalRules {

    static final long MAX_WAL_BYTES = 128L * 1024 * 1024;

    private final String wal;
    private final String shm;
    private final List<String> problems;
    private final List<String> notes;

    private WalRules(Path wal, Path shm, List<String> problems, List<String> notes) {
        this.wal = "WAL " + wal;
        this.shm = shm.toString();
        this.problems = problems;
        this.notes = notes;
    }

    /**
     * Checks {@code wal} (absolute) of size {@code size} > 0 against {@code shm}; {@code dbPageSize}
     * is 0 when unknown. Returns the committed frame count SQLite's recovery will keep.
     */
    static long check(
            Path wal,
            long size,
            Path shm,
            boolean dbNonEmpty,
            int dbPageSize,
            List<String> problems,
            List<String> notes)
            throws IOException {
        WalRules rules = new WalRules(wal, shm, problems, notes);
        if (size > MAX_WAL_BYTES) {
            rules.problem(size + " bytes exceeds the " + MAX_WAL_BYTES + "-byte limit (oversized WAL)");
            return 0;
        }
        WalIndex index = WalIndex.read(shm);
        if (size < WalScan.HEADER_SIZE) {
            rules.unusableHeader("empty/torn WAL header (" + size + " bytes)", true, index);
            return 0;
        }
        WalScan scan = WalScan.scan(wal, size);
        if (scan.headerProblem() != null) {
            rules.unusableHeader(scan.headerProblem(), false, index);
            return 0;
        }
        if (index.usable() && !Arrays.equals(index.salt(), scan.salt())) {
            index = index.unusable("its salts differ from the WAL header (index of another WAL generation)");
        }
        rules.judge(scan, index);
        if (dbPageSize != 0 && scan.pageSize() != dbPageSize) {
            rules.problem("page size " + scan.pageSize() + " differs from the database page size " + dbPageSize);
        }
        if (!dbNonEmpty && scan.lastCommitFrame() > 0) {
            rules.problem(scan.lastCommitFrame() + " committed frames beside a missing or empty database");
        }
        return scan.lastCommitFrame();
    }

    /**
     * A WAL whose header SQLite would ignore (discarding all of it): fine only if the wal-index
     * (checked without salts, which the header cannot supply) says nothing was committed. A file too
     * short for a header is also fine without an index, since it cannot hold a frame.
     */
    private void unusableHeader(String what, boolean tooShort, WalIndex index) {
        if (index.usable() && index.mxFrame() > 0) {
            problem(what + ", but wal-index " + shm + " records " + index.mxFrame()
                    + " committed frames (committed data would be lost)");
        } else if (index.usable() || tooShort) {
            note(what + "; nothing committed, SQLite will discard it");
        } else {
            problem(what + " and no usable wal-index to prove nothing was committed (" + index.unusableReason()
                    + "); committed data might be lost");
        }
    }

    /** Applies the decision rule to a scan whose header is valid. */
    private void judge(WalScan scan, WalIndex index) {
        if (index.usable()) {
            judgeWithIndex(scan, index.mxFrame(), index.frameChecksum());
        } else {
            note("wal-index " + shm + " not usable (" + index.unusableReason() + "); checking the WAL conservatively");
            judgeWithoutIndex(scan);
        }
        if (scan.validFrames() > scan.lastCommitFrame()) {
            note((scan.validFrames() - scan.lastCommitFrame()) + " valid frame(s) after commit frame "
                    + scan.lastCommitFrame() + " belong to an uncommitted transaction; SQLite will discard them");
        }
    }

    private void judgeWithIndex(WalScan scan, long mxFrame, int[] frameChecksum) {
        int bad = scan.validFrames() + 1;
        if (mxFrame >= bad) {
            problem("committed frame " + bad + " " + describe(scan.end()) + "; wal-index " + shm + " records " + mxFrame
                    + " committed frames (committed data would be lost)");
            return;
        }
        if (mxFrame > 0 && !scan.isCommit((int) mxFrame)) {
            problem("frame " + mxFrame + " is not a commit frame, but wal-index " + shm
                    + " records it as the last commit");
        } else if (mxFrame > 0 && !Arrays.equals(scan.checksumAt((int) mxFrame), frameChecksum)) {
            problem("frame " + mxFrame + " checksum differs from the one wal-index " + shm
                    + " recorded (committed frames were replaced)");
        }
        if (isTorn(scan.end())) {
            note("torn tail at frame " + bad + " (" + describe(scan.end()) + ") after the last committed frame "
                    + mxFrame + "; never acknowledged, SQLite will discard it");
        }
    }

    private void judgeWithoutIndex(WalScan scan) {
        if (isTorn(scan.end())) {
            problem("frame " + (scan.validFrames() + 1) + " " + describe(scan.end())
                    + " and no usable wal-index proves it was uncommitted (committed data might be lost)");
        }
    }

    private static boolean isTorn(WalScan.End end) {
        return end == WalScan.End.PARTIAL || end == WalScan.End.CORRUPT;
    }

    private static String describe(WalScan.End end) {
        return switch (end) {
            case CLEAN -> "missing (WAL truncated at a frame boundary)";
            case PARTIAL -> "missing (WAL ends inside the frame)";
            case CORRUPT -> "checksum mismatch";
            case OLD_SALT -> "has stale salts (overwritten or from an older WAL generation)";
        };
    }

    private void problem(String text) {
        problems.add(wal + ": " + text);
    }

    private void note(String text) {
        notes.add(wal + ": " + text);
    }
}
