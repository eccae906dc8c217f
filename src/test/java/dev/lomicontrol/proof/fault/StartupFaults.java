package dev.lomicontrol.proof.fault;

import dev.lomicontrol.testing.BrokerChildProcess;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Faults the broker meets when it opens its store: a second broker on the same data directory, a
 * corrupted database page, a truncated WAL and a read-only file system. Each must refuse the start
 * with STORAGE_UNAVAILABLE, leave the store byte for byte, say what the admin must do, and start
 * once the admin has done what docs/OPERATIONS.md says.
 */
final class StartupFaults {

    private static final String REFUSED = "lomi-control: the broker did not start: STORAGE_UNAVAILABLE";

    /** How a test damages the files of a stopped store ({@code pageSize}, {@code rootPage} of the receipts table). */
    @FunctionalInterface
    interface Damage {
        String apply(Path store, long pageSize, long rootPage) throws IOException;
    }

    private final FaultLab lab;

    StartupFaults(FaultLab lab) {
        this.lab = lab;
    }

    /** A second broker on a data directory a running broker owns; the first keeps serving; the second starts once the first stopped. */
    FaultReport secondBroker() throws Exception {
        FaultReport.Builder report = new FaultReport.Builder("second-broker");
        Path data = lab.dataIn(Files.createDirectories(lab.work.resolve("second-broker")));
        BrokerChildProcess first = lab.start(data, "second-broker-first");
        List<String> acknowledged;
        try (AgentClient agent = lab.agent(first, "second-broker-first")) {
            acknowledged = new ArrayList<>(lab.acknowledge(agent, "second", 3));
            BrokerChildProcess.Refusal refusal = lab.refusedStart(data, "second-broker-second");
            judgeRefusal(report, refusal, "owned by another process (pid=" + first.pid() + " ");
            report.expect(first.isAlive(), "the running broker keeps running");
            AgentClient.Answer during = agent.create(agent.createRequest("second-during"));
            report.expect(
                    during.succeeded(),
                    "the running broker keeps serving while the second is refused: " + during.raw());
            if (during.succeeded()) {
                acknowledged.add("second-during");
            }
        } finally {
            first.stop();
        }
        report.note("admin action: stop the broker that holds owner.lock");
        recover(report, data, "second", acknowledged, "after the holder stopped");
        return report.build();
    }

    /** The receipts table's root page overwritten in a cleanly closed store; restored from the {@code ledger export} backup. */
    FaultReport corruptPage() throws Exception {
        return damagedStore("corrupt-page", false, "quick_check", true, StartupFaults::overwriteReceiptRoot);
    }

    /**
     * The same damage repaired the other documented way: the damaged database moved aside and the
     * broker started empty. Its receipts are gone by the admin's choice (reported, not a failure);
     * projects and YOLO live in the same database, so the admin adds them again.
     */
    FaultReport corruptPageMovedAside() throws Exception {
        return damagedStore(
                "corrupt-page-moved-aside", false, "quick_check", false, StartupFaults::overwriteReceiptRoot);
    }

    private static String overwriteReceiptRoot(Path store, long pageSize, long rootPage) throws IOException {
        long offset = (rootPage - 1) * pageSize + (rootPage == 1 ? 100 : 0);
        try (RandomAccessFile file =
                new RandomAccessFile(store.resolve(StoreView.DATABASE).toFile(), "rw")) {
            file.seek(offset);
            file.write(new byte[] {0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f});
        }
        return "8 bytes at offset " + offset + " (header of page " + rootPage + ", the receipts table's root)";
    }

    /** The WAL of a SIGKILLed broker cut by two frames (committed history); restored from the {@code ledger export} backup. */
    FaultReport truncatedWal() throws Exception {
        return damagedStore("truncated-wal", true, "WAL", true, (store, pageSize, rootPage) -> {
            Path wal = store.resolve(StoreView.DATABASE + "-wal");
            long frame = 24 + pageSize;
            long before = Files.exists(wal) ? Files.size(wal) : 0;
            if (before < 32 + 3 * frame) {
                throw new AssertionError("the killed broker left a WAL of " + before
                        + " bytes; too little to truncate committed frames");
            }
            try (RandomAccessFile file = new RandomAccessFile(wal.toFile(), "rw")) {
                file.setLength(before - 2 * frame);
            }
            return "WAL cut from " + before + " to " + (before - 2 * frame) + " bytes (2 frames)";
        });
    }

    private FaultReport damagedStore(
            String fault, boolean killed, String expected, boolean restoreBackup, Damage damage) throws Exception {
        FaultReport.Builder report = new FaultReport.Builder(fault);
        Path dir = Files.createDirectories(lab.work.resolve(fault));
        Path data = killed ? lab.killedDataIn(dir) : lab.dataIn(dir);
        String prefix = FaultLab.TEMPLATE;
        List<String> acknowledged = lab.acknowledged();
        Path backup = lab.backup;
        Path store = StoreView.store(data);
        report.note("damage: " + damage.apply(store, lab.pageSize, lab.receiptRootPage));
        Map<String, String> damaged = StoreView.fingerprints(store);

        BrokerChildProcess.Refusal refusal = lab.refusedStart(data, fault + "-refused");
        judgeRefusal(report, refusal, expected);
        Map<String, String> after = StoreView.fingerprints(store);
        report.expect(
                after.equals(damaged),
                "the damaged files are preserved byte for byte: before " + damaged + ", after " + after);
        report.replaced += changed(damaged, after);

        // the admin, as docs/OPERATIONS.md says: keep a copy of agent-control/, then restore the backup made by `ledger
        // export`
        Path evidence = dir.resolve("agent-control.damaged");
        Shell.copyTree(store, evidence);
        if (restoreBackup) {
            restore(store, backup);
            report.note(
                    "admin action: cp -a agent-control agent-control.damaged; replace control.sqlite3* with the ledger export backup (0600)");
            recover(report, data, prefix, acknowledged, "after restoring the ledger export backup");
        } else {
            moveAside(store, Files.createDirectories(dir.resolve("moved-aside")));
            report.note(
                    "admin action: cp -a agent-control agent-control.damaged; mv agent-control/control.sqlite3* moved-aside/");
            startEmpty(report, data, prefix, acknowledged);
        }
        report.expect(StoreView.fingerprints(evidence).equals(damaged), "the evidence copy equals the damaged files");
        return report.build();
    }

    /**
     * A SIGKILLed broker's store on a file system remounted read-only. (A read-only remount under a
     * running broker is refused by the kernel while the broker holds the store open for writing.)
     */
    FaultReport readOnly() throws Exception {
        FaultReport.Builder report = new FaultReport.Builder("read-only");
        Path mount = lab.work.resolve("read-only-mnt");
        String whyNot = Shell.mountTmpfsOrWhyNot(mount, "32m", "needs root to mount a tmpfs and remount it read-only");
        if (!whyNot.isEmpty()) {
            return FaultReport.skipped("read-only", whyNot);
        }
        try {
            Path data = lab.killedDataIn(mount);
            Map<String, String> before = StoreView.fingerprints(StoreView.store(data));
            Shell.Result ro = Shell.remount(mount, "ro");
            report.expect(ro.ok(), "remount,ro: " + ro.output());
            BrokerChildProcess.Refusal refusal = lab.refusedStart(data, "read-only-refused");
            judgeRefusal(report, refusal, "read-only");
            try (AgentClient agent = lab.unconnectedAgent(data, "read-only")) {
                AgentClient.Answer blocked = agent.call("lomi_files_mutate", lab.createRequest("read-only-blocked"));
                report.note("a create sent meanwhile: " + blocked.word());
                report.expect(blocked.neverSent(), "a call without a broker is answered 'not sent': " + blocked.raw());
            }
            report.expect(!lab.effect("read-only-blocked"), "no effect while the broker is down");
            Map<String, String> after = StoreView.fingerprints(StoreView.store(data));
            report.replaced += changed(before, after);
            report.expect(after.equals(before), "the store is unchanged: before " + before + ", after " + after);
            report.expect(Shell.remount(mount, "rw").ok(), "remount,rw");
            report.note("admin action: mount -o remount,rw");
            recover(report, data, FaultLab.TEMPLATE, lab.acknowledged(), "after remount,rw");
            return report.build();
        } finally {
            Shell.unmount(mount);
        }
    }

    /**
     * Whether the kernel lets a running broker's data directory be remounted read-only (it does
     * not while the store is open for writing: EBUSY); reported by the bench, not a promise.
     */
    String remountUnderRunningBroker() throws Exception {
        Path mount = lab.work.resolve("live-remount-mnt");
        if (!Shell.isRoot() || !Shell.mountTmpfs(mount, "32m").ok()) {
            return "not tried (cannot mount here)";
        }
        try {
            BrokerChildProcess broker = lab.start(lab.dataIn(mount), "live-remount");
            try {
                Shell.Result live = Shell.remount(mount, "ro");
                if (live.ok()) {
                    Shell.remount(mount, "rw");
                }
                return live.ok()
                        ? "ALLOWED"
                        : "refused by the kernel: "
                                + live.output().lines().findFirst().orElse("");
            } finally {
                broker.kill();
            }
        } finally {
            Shell.unmount(mount);
        }
    }

    /** Starts the broker again, checks the acknowledged receipts and effects, and runs one new create through a new helper. */
    private void recover(FaultReport.Builder report, Path data, String prefix, List<String> acknowledged, String how)
            throws Exception {
        BrokerChildProcess broker = lab.start(data, report.fault + "-recovered");
        try (AgentClient agent = lab.agent(broker, report.fault + "-recovered")) {
            report.lost += lab.lost(data, prefix, acknowledged);
            report.expect(
                    StoreView.receipts(data, report.fault + "-blocked").isEmpty(), "a blocked call left no receipt");
            report.replaced += lab.replaced(data, prefix, acknowledged);
            AgentClient.Answer next = agent.create(agent.createRequest(report.fault + "-next"));
            report.recovered = next.succeeded() && lab.effect(report.fault + "-next")
                    ? "yes (" + how + ", the next create succeeded)"
                    : "no";
            report.expect(next.succeeded(), "the next create after recovery succeeds: " + next.raw());
            report.expect(
                    agent.foreignLines().isEmpty(), "helper stdout carries JSON-RPC only: " + agent.foreignLines());
        } finally {
            broker.stop();
        }
        report.expect(report.lost == 0, "acknowledged operations lost: " + report.lost);
        report.expect(report.replaced == 0, "acknowledged operations or store files replaced: " + report.replaced);
    }

    /** The broker on an empty ledger: the admin adds the project and YOLO again; the acknowledged receipts are gone, their files stay. */
    private void startEmpty(FaultReport.Builder report, Path data, String prefix, List<String> acknowledged)
            throws Exception {
        BrokerChildProcess broker = lab.start(data, report.fault + "-empty");
        try {
            report.note("'project list' on the empty ledger: "
                    + broker.console()
                            .in(lab.work)
                            .mergingStderr()
                            .ok("project", "list")
                            .strip()
                            .replace('\n', ' '));
            broker.withProjectAndYolo(lab.project.toRealPath());
            try (AgentClient agent = lab.agent(broker, report.fault + "-empty")) {
                report.lost = lab.lost(data, prefix, acknowledged);
                long files = acknowledged.stream().filter(lab::effect).count();
                report.note(report.lost
                        + " acknowledged receipts gone with the moved-aside database, as docs/OPERATIONS.md warns; their "
                        + files + " files stay in the project; admin re-ran 'project add' and 'yolo on'");
                report.expect(
                        report.lost == acknowledged.size() && files == acknowledged.size(),
                        "an empty ledger and every file kept");
                AgentClient.Answer next = agent.create(agent.createRequest(report.fault + "-next"));
                report.recovered = next.succeeded()
                        ? "yes (started empty after the damaged database was moved aside, the next create succeeded)"
                        : "no";
                report.expect(next.succeeded(), "the next create on the empty ledger succeeds: " + next.raw());
            }
        } finally {
            broker.stop();
        }
    }

    private static void moveAside(Path store, Path aside) throws IOException {
        try (Stream<Path> files = Files.list(store)) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith(StoreView.DATABASE))
                    .toList()) {
                Files.move(file, aside.resolve(file.getFileName()));
            }
        }
    }

    private static void judgeRefusal(FaultReport.Builder report, BrokerChildProcess.Refusal refusal, String expected) {
        String line = refusal.stderr()
                .lines()
                .filter(l -> l.contains("the broker did not start"))
                .findFirst()
                .orElse("");
        report.blockedWith = line.contains(REFUSED)
                ? "STORAGE_UNAVAILABLE (start refused, exit " + refusal.exitCode() + ")"
                : "start "
                        + (refusal.exitCode() == 0
                                ? "NOT refused"
                                : "refused, exit " + refusal.exitCode() + ": " + line);
        report.adminMessage = line.contains(expected) ? line : "";
        report.expect(refusal.exitCode() == 1, "the refused start exits 1, not " + refusal.exitCode());
        report.expect(line.contains(REFUSED), "the refusal says '" + REFUSED + "': " + tail(refusal.stderr()));
        report.expect(line.contains(expected), "the refusal names the cause '" + expected + "': " + line);
    }

    /** Puts the export backup in place of the damaged database files: 0600, no {@code -wal}/{@code -shm}. */
    private static void restore(Path store, Path backup) throws IOException {
        try (Stream<Path> files = Files.list(store)) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith(StoreView.DATABASE))
                    .toList()) {
                Files.delete(file);
            }
        }
        Path database = store.resolve(StoreView.DATABASE);
        Files.copy(backup, database);
        Files.setPosixFilePermissions(database, PosixFilePermissions.fromString("rw-------"));
    }

    private static int changed(Map<String, String> before, Map<String, String> after) {
        int changed = 0;
        for (String name : before.keySet()) {
            changed += before.get(name).equals(after.get(name)) ? 0 : 1;
        }
        for (String name : after.keySet()) {
            changed += before.containsKey(name) ? 0 : 1;
        }
        return changed;
    }

    private static String tail(String text) {
        return text.length() <= 2000 ? text : text.substring(text.length() - 2000);
    }
}
