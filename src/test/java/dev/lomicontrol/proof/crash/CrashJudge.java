package dev.lomicontrol.proof.crash;

import dev.lomicontrol.proof.crash.LedgerRows.Row;
import dev.lomicontrol.proof.crash.WorkItem.Kind;
import dev.lomicontrol.proof.crash.WorkItem.Knowledge;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Holds the client's history against reality: the receipts on disk and the effects on disk. Every
 * broken promise becomes one line in {@link Verdict#violations()}; the tallies feed the report.
 */
final class CrashJudge {

    /** The findings at one moment. */
    record Verdict(
            List<String> violations,
            int maxEffectsPerKey,
            int maxReceiptsPerKey,
            int acknowledged,
            int acknowledgedMissing,
            int unsettledRows,
            int stagingLeft,
            Map<String, Integer> ledgerUnknown,
            Map<String, Integer> clientUnknown,
            Map<String, Integer> recoveryAnswers,
            Map<String, Integer> clientKnowledge,
            List<String> uncertainItems) {}

    /** The files library's staging prefix ({@code files.Staging.PREFIX}, package-private there). */
    static final String STAGING_PREFIX = ".lomi-";

    private CrashJudge() {}

    /**
     * The effects on disk: per request key, a file {@code created/<key>} counts one and each line
     * {@code <key>} of the log counts one. Staging files ({@code .lomi-*}) that a killed create left
     * beside its target are no effect of any key; they are counted apart.
     */
    record Disk(Map<String, Integer> effects, List<String> stagingLeft) {}

    static Disk disk(Path project) throws IOException {
        Map<String, Integer> count = new HashMap<>();
        List<String> staging = new ArrayList<>();
        try (Stream<Path> files = Files.list(project.resolve(CrashSuite.CREATED))) {
            files.map(file -> file.getFileName().toString()).sorted().forEach(name -> {
                if (name.startsWith(STAGING_PREFIX)) {
                    staging.add(name);
                } else {
                    count.merge(name, 1, Integer::sum);
                }
            });
        }
        Path log = project.resolve(CrashSuite.EFFECTS_LOG);
        if (Files.exists(log)) {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    count.merge(line.strip(), 1, Integer::sum);
                }
            }
        }
        return new Disk(count, staging);
    }

    static Verdict judge(List<WorkItem> items, List<Row> rows, Disk disk) {
        Map<String, Integer> effects = disk.effects();
        List<String> violations = new ArrayList<>();
        Map<String, List<Row>> receipts = new HashMap<>();
        rows.forEach(row -> receipts.computeIfAbsent(row.requestKey(), k -> new ArrayList<>())
                .add(row));
        Map<String, WorkItem> byKey = new HashMap<>();
        items.forEach(item -> byKey.put(item.key, item));
        effects.keySet().stream()
                .filter(key -> !byKey.containsKey(key))
                .forEach(key -> violations.add("an effect nobody asked for: " + key));
        receipts.keySet().stream()
                .filter(key -> !byKey.containsKey(key))
                .forEach(key -> violations.add("a receipt nobody asked for: " + key));
        int acknowledged = 0;
        int missing = 0;
        Map<String, Integer> ledgerUnknown = new TreeMap<>();
        Map<String, Integer> clientUnknown = new TreeMap<>();
        Map<String, Integer> recoveryAnswers = new TreeMap<>();
        List<String> uncertainItems = new ArrayList<>();
        Map<String, Integer> clientKnowledge = new TreeMap<>();
        for (WorkItem item : items) {
            List<Row> mine = receipts.getOrDefault(item.key, List.of());
            int effect = effects.getOrDefault(item.key, 0);
            Row row = mine.isEmpty() ? null : mine.get(0);
            if (mine.size() > 1) {
                violations.add(item + ": " + mine.size() + " receipts for one key " + mine);
            }
            if (effect > 1) {
                violations.add(item + ": the effect happened " + effect + " times");
            }
            if (item.acknowledged()) {
                acknowledged++;
                if (mine.stream().noneMatch(r -> r.operationId().equals(item.operationId.get()))) {
                    missing++;
                    violations.add(item + ": acknowledged, but its receipt is gone after the restart");
                }
            }
            if (item.knowledge == Knowledge.SETTLED
                    && row != null
                    && !row.state().equals(item.lastSeen)) {
                violations.add(item + ": the client saw " + item.lastSeen + ", the ledger now says " + row.state());
            }
            if ((item.knowledge == Knowledge.REFUSED || item.knowledge == Knowledge.NOT_SENT)
                    && (row != null || effect > 0)) {
                violations.add(item + ": answered as never run, yet receipt " + row + " and " + effect + " effect(s)");
            }
            if (row != null) {
                truthOfRow(item, row, effect, violations, ledgerUnknown);
            } else if (effect > 0) {
                violations.add(item + ": the effect happened without a receipt");
            }
            if (item.uncertain()) {
                uncertainItems.add(
                        item + " -> ledger " + (row == null ? "no receipt" : row.state() + "/" + row.effect())
                                + ", effects on disk " + effect);
                clientUnknown.merge(
                        item.knowledge
                                + (row == null ? ", no receipt" : ", ledger " + row.state())
                                + (effect > 0 ? ", effect happened" : ", no effect"),
                        1,
                        Integer::sum);
            }
            item.recovery.forEach(answer -> recoveryAnswers.merge(answer, 1, Integer::sum));
            if (item.kind != Kind.SETUP) {
                clientKnowledge.merge(item.knowledge + " " + item.lastSeen, 1, Integer::sum);
            }
        }
        int unsettled = (int) rows.stream().filter(r -> !r.settled()).count();
        int maxEffects =
                effects.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        int maxReceipts = receipts.values().stream().mapToInt(List::size).max().orElse(0);
        return new Verdict(
                violations,
                maxEffects,
                maxReceipts,
                acknowledged,
                missing,
                unsettled,
                disk.stagingLeft().size(),
                ledgerUnknown,
                clientUnknown,
                recoveryAnswers,
                clientKnowledge,
                uncertainItems);
    }

    /** The ledger may say "unknown"; it may not say anything false about the disk. */
    private static void truthOfRow(
            WorkItem item, Row row, int effect, List<String> violations, Map<String, Integer> ledgerUnknown) {
        boolean countable = item.kind != Kind.SETUP;
        if (row.state().equals("outcome_unknown")) {
            if (!row.effect().equals("unknown")) {
                violations.add(item + ": outcome_unknown with effect " + row.effect());
            }
            if (countable) {
                ledgerUnknown.merge(effect > 0 ? "effect happened" : "no effect", 1, Integer::sum);
            }
        } else if (countable && row.state().equals("succeeded") && effect != 1) {
            violations.add(item + ": succeeded, but " + effect + " effects on disk");
        } else if (countable && row.effect().equals("none") && effect != 0) {
            violations.add(item + ": " + row.state() + "/none, but the effect is on disk");
        }
    }
}
