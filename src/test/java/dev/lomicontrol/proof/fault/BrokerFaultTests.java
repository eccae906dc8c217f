package dev.lomicontrol.proof.fault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.Machine;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault suite at the broker level (issue 8): a real headless broker in a child JVM with its data
 * directory on the faulty medium, the real MCP helper as the agent, the console as the admin. For
 * each fault the effect is blocked with STORAGE_UNAVAILABLE, no acknowledged operation is lost or
 * replaced, the broker says what the admin must do, and it works again once the fault is removed.
 * Mount faults need root (CI runs as root; elsewhere they are reported as not run, saying why); the
 * fsync fault needs libfiu's tools (fiu-utils; {@code .ci/run} installs them) and fails without them.
 */
class BrokerFaultTests {

    @TempDir
    static Path temp;

    static FaultLab lab;

    @BeforeAll
    static void prepareTheTemplateStore() throws Exception {
        lab = FaultLab.prepare(temp);
    }

    @Test
    void aSecondBrokerOnTheSameDataDirectoryIsRefusedWhileTheFirstKeepsServing() throws Exception {
        FaultReport report = judged(new StartupFaults(lab).secondBroker());

        assertThat(report.adminMessage()).contains("owned by another process (pid=");
    }

    @Test
    void aCorruptDatabasePageRefusesTheStartKeepsTheEvidenceAndTheRestoredBackupStarts() throws Exception {
        FaultReport report = judged(new StartupFaults(lab).corruptPage());

        assertThat(report.adminMessage()).contains("quick_check");
    }

    @Test
    void aTruncatedWalRefusesTheStartKeepsTheEvidenceAndTheRestoredBackupStarts() throws Exception {
        FaultReport report = judged(new StartupFaults(lab).truncatedWal());

        assertThat(report.adminMessage()).contains("WAL");
    }

    @Test
    void aReadOnlyStoreRefusesTheStartUnchangedAndStartsAfterARemountReadWrite() throws Exception {
        FaultReport report = judged(new StartupFaults(lab).readOnly());

        assertThat(report.adminMessage()).contains("read-only");
    }

    @Test
    void aFullDiskBlocksTheEffectAndTheSameRequestWorksOnceSpaceIsFreedWithoutARestart() throws Exception {
        FaultReport report = judged(new WriteFaults(lab).diskFull());

        assertThat(report.blockedWith()).isEqualTo("STORAGE_UNAVAILABLE");
        assertThat(report.adminMessage()).contains("full");
    }

    @Test
    void aFailingFsyncBlocksTheEffectAndTheBrokerWorksAgainAfterTheDocumentedRestart() throws Exception {
        FaultReport report = judged(new WriteFaults(lab).fsyncFailure());

        assertThat(report.blockedWith()).isEqualTo("STORAGE_UNAVAILABLE");
        assertThat(report.adminMessage()).contains("restart the broker");
    }

    /**
     * A missing tool fails with its install command (libfiu: apt-get install fiu-utils, which .ci/run
     * installs); a fault that needs root is not run on a machine without it, saying why, and as root every
     * fault must be staged. Else
     * asserts the four promises of the report.
     */
    private static FaultReport judged(FaultReport report) {
        assertThat(report.skipped()).as(report.line()).doesNotContain("apt-get install");
        if (!report.skipped().isEmpty()) {
            assertThat(Machine.isRoot())
                    .as("as root every fault is staged (CI runs as root): " + report.line())
                    .isFalse();
            Machine.assumeRoot(report.skipped());
        }
        System.err.println(report.line());
        assertThat(report.problems()).as(report.line()).isEmpty();
        assertThat(report.blockedWith()).as("blocked with").contains("STORAGE_UNAVAILABLE");
        assertThat(report.lost()).as("acknowledged operations lost").isZero();
        assertThat(report.replaced())
                .as("acknowledged operations or store files replaced")
                .isZero();
        assertThat(report.adminMessage()).as("the broker's words to the admin").isNotEmpty();
        assertThat(report.recovered())
                .as("recovered once the fault was removed")
                .startsWith("yes");
        return report;
    }
}
