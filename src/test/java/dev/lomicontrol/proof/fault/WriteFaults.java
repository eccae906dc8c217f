package dev.lomicontrol.proof.fault;

import dev.lomicontrol.testing.BrokerChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * Faults that hit a running broker's durable write: a full disk and a failing fsync. The mutating
 * call must be refused with STORAGE_UNAVAILABLE before any effect and without a receipt the client
 * was told about, and the broker must work again once the fault is gone (at once for a full disk;
 * after the documented restart for a failed fsync).
 */
final class WriteFaults {

    private static final String SYNC_POINTS = "posix/io/sync/*";

    private final FaultLab lab;

    WriteFaults(FaultLab lab) {
        this.lab = lab;
    }

    /** The data directory on a small tmpfs filled to the last byte while the broker runs; space freed again without a restart. */
    FaultReport diskFull() throws Exception {
        FaultReport.Builder report = new FaultReport.Builder("disk-full");
        Path mount = lab.work.resolve("disk-full-mnt");
        String whyNot = Shell.mountTmpfsOrWhyNot(mount, "32m", "needs root to mount a small tmpfs");
        if (!whyNot.isEmpty()) {
            return FaultReport.skipped("disk-full", whyNot);
        }
        try {
            Path data = lab.dataIn(mount);
            BrokerChildProcess broker = lab.start(data, "disk-full");
            try (AgentClient agent = lab.agent(broker, "disk-full")) {
                List<String> acknowledged = new ArrayList<>(lab.acknowledge(agent, "full", 3));
                Path filler = mount.resolve("filler");
                long filled = Shell.fill(filler);
                report.note("filler " + filled + " bytes, " + Shell.free(mount) + " bytes left");
                AgentClient.Answer answer = null;
                ObjectNode blockedRequest = null;
                for (int i = 1; i <= 200; i++) {
                    ObjectNode request = agent.createRequest("full-blocked-" + i);
                    answer = agent.create(request);
                    if (!answer.succeeded()) {
                        blockedRequest = request;
                        break;
                    }
                    acknowledged.add("full-blocked-" + i);
                }
                report.note(
                        (acknowledged.size() - 3) + " creates still fitted into space SQLite had already allocated");
                report.expect(blockedRequest != null, "a full disk refused a create within 200 tries");
                if (blockedRequest == null) {
                    return report.build();
                }
                String key = blockedRequest.path("requestKey").asString();
                judgeBlocked(report, answer, key, data);
                report.expect(
                        answer.message().contains("full"), "the refusal says the disk is full: " + answer.message());
                String status = broker.console().in(lab.work).mergingStderr().ok("ledger", "status");
                String refusalLine = status.lines()
                        .filter(l -> l.contains("last refusal"))
                        .findFirst()
                        .orElse("");
                report.expect(
                        refusalLine.contains("full") && refusalLine.contains("free space"),
                        "console 'ledger status' names the refusal and the action: " + status);
                List<String> logged = broker.logText()
                        .lines()
                        .filter(l -> l.contains("free space"))
                        .toList();
                report.expect(!logged.isEmpty(), "the broker log tells the admin to free space");
                report.adminMessage = String.join(
                        " | ",
                        List.of(
                                answer.message(),
                                "console: " + refusalLine.trim(),
                                "log: " + (logged.isEmpty() ? "" : logged.get(0).trim())));

                Files.delete(filler);
                AgentClient.Answer again = agent.create(blockedRequest);
                report.recovered = again.succeeded() && lab.effect(key)
                        ? "yes (space freed; the identical request succeeded, no restart)"
                        : "no";
                report.expect(
                        again.succeeded(),
                        "the identical request succeeds once space is freed, without a restart: " + again.raw());
                report.expect(
                        StoreView.receipts(data, key).size() == 1, "one receipt for the blocked-then-repeated key");
                report.lost = lab.lost(data, "full", acknowledged);
                report.replaced = lab.replaced(data, "full", acknowledged);
                report.expect(
                        report.lost == 0 && report.replaced == 0,
                        "acknowledged operations intact: lost " + report.lost + ", replaced " + report.replaced);
            } finally {
                broker.stop();
            }
            return report.build();
        } finally {
            Shell.unmount(mount);
        }
    }

    /**
     * fsync/fdatasync made to fail (libfiu, enabled at run time through {@code fiu-ctrl} on the broker
     * under {@code fiu-run -x}): the commit is refused; after the fault is removed the writer stays
     * stopped until the broker restarts (docs/OPERATIONS.md), and then works.
     */
    FaultReport fsyncFailure() throws Exception {
        if (!Shell.fiuInstalled()) {
            return FaultReport.skipped(
                    "fsync-failure", "libfiu's fiu-run/fiu-ctrl are not installed (apt-get install fiu-utils)");
        }
        FaultReport.Builder report = new FaultReport.Builder("fsync-failure");
        Path dir = Files.createDirectories(lab.work.resolve("fsync-failure"));
        Path data = lab.dataIn(dir);
        String control = dir.resolve("fiu-ctrl").toString();
        BrokerChildProcess broker = lab.start(data, "fsync-failure", List.of("fiu-run", "-x", "-f", control));
        List<String> acknowledged;
        try (AgentClient agent = lab.agent(broker, "fsync-failure")) {
            acknowledged = lab.acknowledge(agent, "fsync", 3);
            Shell.Result enabled = Shell.run(
                    "fiu-ctrl", "-f", control, "-c", "enable name=" + SYNC_POINTS, Long.toString(broker.pid()));
            report.expect(enabled.ok(), "fiu-ctrl enable: " + enabled.output());
            ObjectNode request = agent.createRequest("fsync-blocked");
            AgentClient.Answer answer = agent.create(request);
            judgeBlocked(report, answer, "fsync-blocked", data);
            report.note("refusal: " + answer.message());
            Shell.Result disabled = Shell.run(
                    "fiu-ctrl", "-f", control, "-c", "disable name=" + SYNC_POINTS, Long.toString(broker.pid()));
            report.expect(disabled.ok(), "fiu-ctrl disable: " + disabled.output());

            AgentClient.Answer still = agent.create(request);
            report.note("the identical request after the fault was removed, before a restart: " + still.word() + " "
                    + still.message());
            report.expect(
                    still.code().equals("STORAGE_UNAVAILABLE")
                            && still.message().contains("restart the broker"),
                    "the stopped writer tells the admin to restart the broker: " + still.raw());
            String status = broker.console().in(dir).mergingStderr().ok("ledger", "status");
            report.adminMessage = String.join(" | ", List.of(still.message(), "console: " + writerLine(status)));
            report.expect(
                    writerLine(status).contains("restart the broker"),
                    "console ledger status says to restart: " + status);
            broker.awaitLog("ledger writer stopped");
        } finally {
            broker.stop();
        }
        report.note("admin action: restart the broker (the store is checked again)");
        BrokerChildProcess restarted = lab.start(data, "fsync-failure-restarted");
        try (AgentClient agent = lab.agent(restarted, "fsync-failure-restarted")) {
            report.lost = lab.lost(data, "fsync", acknowledged);
            report.replaced = lab.replaced(data, "fsync", acknowledged);
            Map<String, String> blocked = StoreView.receipts(data, "fsync-blocked");
            report.note("receipt of the refused key after the restart: " + (blocked.isEmpty() ? "none" : blocked));
            report.expect(!lab.effect("fsync-blocked"), "the refused create has no effect");
            AgentClient.Answer next = agent.create(agent.createRequest("fsync-next"));
            report.recovered = next.succeeded() && lab.effect("fsync-next")
                    ? "yes (after the documented restart, the next create succeeded)"
                    : "no";
            report.expect(next.succeeded(), "the next create after the restart succeeds: " + next.raw());
        } finally {
            restarted.stop();
        }
        report.expect(
                report.lost == 0 && report.replaced == 0,
                "acknowledged operations intact: lost " + report.lost + ", replaced " + report.replaced);
        return report.build();
    }

    /** The refused call: STORAGE_UNAVAILABLE, no file, and no receipt the broker kept for it (read beside the running broker). */
    private void judgeBlocked(FaultReport.Builder report, AgentClient.Answer answer, String key, Path data)
            throws Exception {
        report.blockedWith = answer.word();
        report.expect(
                answer.code().equals("STORAGE_UNAVAILABLE"),
                "the create is refused with STORAGE_UNAVAILABLE: " + answer.raw());
        report.expect(!lab.effect(key), "no effect for the refused create " + key);
        Map<String, String> receipts = StoreView.receipts(data, key);
        report.expect(receipts.isEmpty(), "no receipt visible for the refused create " + key + ": " + receipts);
    }

    private static String writerLine(String status) {
        return status.lines()
                .filter(l -> l.strip().startsWith("writer"))
                .findFirst()
                .orElse("(no writer line)")
                .strip();
    }
}
