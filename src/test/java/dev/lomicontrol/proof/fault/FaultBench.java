package dev.lomicontrol.proof.fault;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole fault suite as one program ({@code bench/faults.sh}): every fault against a real
 * broker, one report line each on stdout ({@code fault, blocked-with, lost, replaced,
 * admin-message-present, recovered}), progress and broker noise on stderr. Exit status 0 when no
 * fault broke a promise (a fault the machine cannot stage is reported as skipped), 1 otherwise.
 *
 * <pre>FaultBench --work-dir=DIR [--only=disk-full,read-only,fsync-failure,corrupt-page,corrupt-page-moved-aside,truncated-wal,second-broker]</pre>
 */
public final class FaultBench {

    /** A fault run of the suite. */
    @FunctionalInterface
    private interface Fault {
        FaultReport run() throws Exception;
    }

    private FaultBench() {}

    public static void main(String[] args) throws Exception {
        Path work = null;
        List<String> only = List.of();
        for (String arg : args) {
            if (arg.startsWith("--work-dir=")) {
                work = Path.of(arg.substring("--work-dir=".length())).toAbsolutePath();
            } else if (arg.startsWith("--only=")) {
                only = List.of(arg.substring("--only=".length()).split(","));
            } else {
                System.err.println("usage: FaultBench --work-dir=DIR [--only=FAULT,...]");
                System.exit(2);
            }
        }
        if (work == null) {
            System.err.println("usage: FaultBench --work-dir=DIR [--only=FAULT,...]");
            System.exit(2);
        }
        System.exit(run(Files.createDirectories(work), only) ? 0 : 1);
    }

    private static boolean run(Path work, List<String> only) throws Exception {
        long started = System.nanoTime();
        FaultLab lab = FaultLab.prepare(work);
        StartupFaults startup = new StartupFaults(lab);
        WriteFaults writes = new WriteFaults(lab);
        Map<String, Fault> faults = new LinkedHashMap<>();
        faults.put("disk-full", writes::diskFull);
        faults.put(
                "read-only",
                () -> startup.readOnly()
                        .withNote("remount,ro under a running broker: " + startup.remountUnderRunningBroker()));
        faults.put("fsync-failure", writes::fsyncFailure);
        faults.put("corrupt-page", startup::corruptPage);
        faults.put("corrupt-page-moved-aside", startup::corruptPageMovedAside);
        faults.put("truncated-wal", startup::truncatedWal);
        faults.put("second-broker", startup::secondBroker);
        List<String> failed = new ArrayList<>();
        for (Map.Entry<String, Fault> fault : faults.entrySet()) {
            if (!only.isEmpty() && !only.contains(fault.getKey())) {
                continue;
            }
            System.err.println("[faults] " + fault.getKey() + " ...");
            String line;
            try {
                FaultReport report = fault.getValue().run();
                line = report.line();
                if (!report.passed()) {
                    failed.add(fault.getKey());
                }
            } catch (Exception | AssertionError e) {
                line = "fault " + fault.getKey() + ": FAIL (" + e + ")";
                e.printStackTrace();
                failed.add(fault.getKey());
            }
            System.out.println(line);
            System.out.flush();
        }
        System.out.printf(
                "fault suite: %s in %.0f s%n",
                failed.isEmpty() ? "every promise held" : "FAILED " + failed,
                Duration.ofNanos(System.nanoTime() - started).toMillis() / 1000.0);
        return failed.isEmpty();
    }
}
