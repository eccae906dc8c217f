package dev.lomicontrol.proof.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.proof.crash.CrashJudge.Disk;
import dev.lomicontrol.proof.crash.CrashJudge.Verdict;
import dev.lomicontrol.proof.crash.LedgerRows.Row;
import dev.lomicontrol.proof.crash.WorkItem.Kind;
import dev.lomicontrol.proof.crash.WorkItem.Knowledge;
import dev.lomicontrol.testing.McpHelperProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The crash suite's judge catches each broken promise it is there for, and accepts an honest "unknown". */
class CrashJudgeTests {

    @TempDir
    Path project;

    @Test
    void aLineAppendedTwiceForOneKeyIsAViolation() throws Exception {
        Files.createDirectories(project.resolve(CrashSuite.CREATED));
        Files.writeString(project.resolve(CrashSuite.EFFECTS_LOG), "k-run\nk-run\n");
        WorkItem run = settled("k-run", Kind.TERMINAL_APPEND, "succeeded");

        Verdict verdict =
                CrashJudge.judge(List.of(run), List.of(row(run, "succeeded", "complete")), CrashJudge.disk(project));

        assertThat(verdict.maxEffectsPerKey()).isEqualTo(2);
        assertThat(verdict.violations()).anySatisfy(v -> assertThat(v).contains("happened 2 times"));
    }

    @Test
    void anAcknowledgedOperationWhoseReceiptIsGoneIsAViolation() {
        WorkItem file = settled("k-file", Kind.FILE_CREATE, "succeeded");

        Verdict verdict = CrashJudge.judge(List.of(file), List.of(), new Disk(Map.of("k-file", 1), List.of()));

        assertThat(verdict.acknowledgedMissing()).isEqualTo(1);
        assertThat(verdict.violations()).anySatisfy(v -> assertThat(v).contains("receipt is gone"));
    }

    @Test
    void theLedgerMayNotClaimSuccessWithoutTheEffectNorNoEffectWithIt() {
        WorkItem succeeded = settled("k-1", Kind.FILE_CREATE, "succeeded");
        WorkItem failed = settled("k-2", Kind.FILE_CREATE, "failed");

        Verdict verdict = CrashJudge.judge(
                List.of(succeeded, failed),
                List.of(row(succeeded, "succeeded", "complete"), row(failed, "failed", "none")),
                new Disk(Map.of("k-2", 1), List.of()));

        assertThat(verdict.violations()).hasSize(2);
    }

    @Test
    void aCallTheHelperCalledUnsentMustLeaveNoReceipt() {
        WorkItem item =
                new WorkItem(1, "k-1", Kind.FILE_CREATE, "lomi_files_mutate", McpHelperProcess.JSON.createObjectNode());
        item.knowledge = Knowledge.NOT_SENT;

        Verdict verdict = CrashJudge.judge(
                List.of(item), List.of(row(item, "outcome_unknown", "unknown")), new Disk(Map.of(), List.of()));

        assertThat(verdict.violations()).anySatisfy(v -> assertThat(v).contains("answered as never run"));
    }

    @Test
    void outcomeUnknownIsTruthfulWhetherOrNotTheEffectHappenedAndStagingFilesAreNoEffect() throws Exception {
        Files.createDirectories(project.resolve(CrashSuite.CREATED));
        Files.writeString(project.resolve(CrashSuite.CREATED).resolve("k-1"), "");
        Files.writeString(project.resolve(CrashSuite.CREATED).resolve(".lomi-0123456789abcdef"), "");
        WorkItem happened = unknown("k-1");
        WorkItem not = unknown("k-2");

        Verdict verdict = CrashJudge.judge(
                List.of(happened, not),
                List.of(row(happened, "outcome_unknown", "unknown"), row(not, "outcome_unknown", "unknown")),
                CrashJudge.disk(project));

        assertThat(verdict.violations()).isEmpty();
        assertThat(verdict.ledgerUnknown()).containsEntry("effect happened", 1).containsEntry("no effect", 1);
        assertThat(verdict.stagingLeft()).isEqualTo(1);
        assertThat(verdict.uncertainItems()).hasSize(2);
    }

    private static WorkItem settled(String key, Kind kind, String state) {
        WorkItem item = new WorkItem(1, key, kind, "tool", McpHelperProcess.JSON.createObjectNode());
        item.knowledge = Knowledge.SETTLED;
        item.lastSeen = state;
        item.operationId = Optional.of("op-" + key);
        return item;
    }

    private static WorkItem unknown(String key) {
        WorkItem item =
                new WorkItem(1, key, Kind.FILE_CREATE, "lomi_files_mutate", McpHelperProcess.JSON.createObjectNode());
        item.knowledge = Knowledge.UNKNOWN_NO_RECEIPT;
        return item;
    }

    private static Row row(WorkItem item, String state, String effect) {
        return new Row(
                item.operationId.orElse("op-" + item.key),
                "session",
                "epoch",
                item.tool,
                item.key,
                state,
                effect,
                null);
    }
}
