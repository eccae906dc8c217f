package dev.lomicontrol.bench;

import dev.lomicontrol.chat.Conversation;
import dev.lomicontrol.chat.Conversations;
import dev.lomicontrol.core.ProjectId;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerProperties;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.settings.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntConsumer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spring Data JDBC against the hand-written SQL it replaced, on the same store file
 * ({@code bash bench/jdbc.sh}; ADR 0012): a plain {@code main}, not a test.
 *
 * <p>Reads run on one thread against the reader pool; writes run inside one {@link Ledger#write}
 * holding {@code --ops} operations, so the figure is the time an operation keeps the single
 * writer busy (what the ledger's hot path would wait for), without the commit. Each pair of
 * phases is interleaved in 10 slices after a warm-up; the report gives operations per second and
 * µs per operation (median of the rounds).
 */
public final class StoreJdbcBenchmark {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public static void main(String[] args) throws Exception {
        int ops = intArg(args, "--ops=", 20_000);
        int rounds = intArg(args, "--rounds=", 3);
        Path dir = Files.createTempDirectory("lomi-jdbc-bench");
        try (Ledger ledger = Ledger.open(
                dir.resolve("agent-control"), LedgerProperties.defaults(), Clock.systemUTC(), new SecureRandom())) {
            Files.createDirectories(dir.resolve("project"));
            ProjectId project = new Projects(ledger, Clock.systemUTC())
                    .add(dir.resolve("project").toRealPath(), Optional.of("bench"))
                    .id();
            Settings settings = new Settings(ledger, Clock.systemUTC());
            settings.apply(settings.plan("editor", JSON.readTree("{\"tabSize\":2}"), "editor:1"));
            Conversations conversations = new Conversations(ledger, Clock.systemUTC(), new SecureRandom());
            Conversation conversation =
                    conversations.create(project, "bench", Optional.of(Conversations.Share.client("bench-client")));
            for (int i = 0; i < 20; i++) {
                conversations.say(
                        conversation.id(), "message " + i, Optional.empty(), Optional.empty(), Optional.empty());
            }
            String id = conversation.id();
            var reply = conversations
                    .say(id, "stream", Optional.of("conn"), Optional.of("model"), Optional.of("req-1"))
                    .assistant();

            List<Pair> pairs = List.of(
                    new Pair(
                            "settings section read (findById + JSON)",
                            i -> settings.read("editor"),
                            i -> handRead(ledger)),
                    new Pair(
                            "conversation read (aggregate with shares)",
                            i -> conversations.find(id).orElseThrow(),
                            i -> handConversation(ledger, id)),
                    new Pair("21 messages read", i -> conversations.messages(id), i -> handMessages(ledger, id)),
                    new Pair("checkpoint in the writer (@Modifying @Query)", null, null),
                    new Pair("setTools in the writer (aggregate save: row + shares)", null, null));

            System.out.printf(
                    Locale.ROOT,
                    "# Spring Data JDBC vs hand-written SQL, same store (%d ops per phase, %d rounds, median)%n%n",
                    ops,
                    rounds);
            System.out.println(
                    "| what | Spring Data JDBC ops/s | hand-written ops/s | Spring µs/op | hand µs/op | ratio |");
            System.out.println("|---|---:|---:|---:|---:|---:|");
            for (Pair pair : pairs.subList(0, 3)) {
                report(pair.name, measure(pair.spring, pair.hand, ops, rounds));
            }
            String message = reply.id();
            int writes = Math.max(80, ops / 10);
            System.out.println();
            System.out.printf(
                    Locale.ROOT,
                    "Writes: %d durable writes per side from 8 threads (group commit), sides interleaved in 4 slices; writer-thread CPU per write.%n%n",
                    writes);
            System.out.println(
                    "| what | Spring Data JDBC writes/s | hand-written writes/s | Spring writer CPU µs/write | hand writer CPU µs/write |");
            System.out.println("|---|---:|---:|---:|---:|");
            writes(
                    pairs.get(3).name,
                    () -> conversations.checkpoint(message, "x"),
                    () -> ledger.write(c -> {
                        handCheckpoint(c, message, "x");
                        return null;
                    }),
                    writes,
                    rounds);
            writes(
                    pairs.get(4).name,
                    () -> conversations.setTools(id, true),
                    () -> ledger.write(c -> {
                        handTools(c, id, true);
                        return null;
                    }),
                    writes,
                    rounds);
        } finally {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
    }

    private record Pair(String name, IntConsumer spring, IntConsumer hand) {}

    /** Both sides from 8 threads, interleaved in 4 slices per round after a warm-up; median writes/s and writer CPU per write. */
    private static void writes(String name, Runnable spring, Runnable hand, int writes, int rounds)
            throws InterruptedException {
        long writer = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("ledger-writer"))
                .findFirst()
                .orElseThrow()
                .getId();
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        double[][] runs = new double[4][rounds];
        for (int round = -1; round < rounds; round++) {
            long[] wall = new long[2];
            long[] cpus = new long[2];
            for (int slice = 0; slice < 4; slice++) {
                for (int side = 0; side < 2; side++) {
                    Runnable work = side == 0 ? spring : hand;
                    long c0 = cpu.getThreadCpuTime(writer);
                    long t0 = System.nanoTime();
                    List<Thread> threads = new ArrayList<>();
                    for (int t = 0; t < 8; t++) {
                        Thread thread = new Thread(() -> {
                            for (int i = 0; i < writes / 32; i++) {
                                work.run();
                            }
                        });
                        thread.start();
                        threads.add(thread);
                    }
                    for (Thread thread : threads) {
                        thread.join();
                    }
                    wall[side] += System.nanoTime() - t0;
                    cpus[side] += cpu.getThreadCpuTime(writer) - c0;
                }
            }
            if (round >= 0) {
                int done = writes / 32 * 32;
                runs[0][round] = done / (wall[0] / 1e9);
                runs[1][round] = done / (wall[1] / 1e9);
                runs[2][round] = cpus[0] / 1000.0 / done;
                runs[3][round] = cpus[1] / 1000.0 / done;
            }
        }
        for (double[] run : runs) {
            Arrays.sort(run);
        }
        System.out.printf(
                Locale.ROOT,
                "| %s | %.0f | %.0f | %.1f | %.1f |%n",
                name,
                runs[0][rounds / 2],
                runs[1][rounds / 2],
                runs[2][rounds / 2],
                runs[3][rounds / 2]);
    }

    /** Median nanoseconds per call of each side, the sides interleaved in 10 slices per round, after one warm-up round. */
    private static double[] measure(IntConsumer spring, IntConsumer hand, int ops, int rounds) {
        double[] springRuns = new double[rounds];
        double[] handRuns = new double[rounds];
        for (int round = -1; round < rounds; round++) {
            long springNanos = 0;
            long handNanos = 0;
            int slice = Math.max(1, ops / 10);
            for (int done = 0; done < ops; done += slice) {
                long t0 = System.nanoTime();
                for (int i = 0; i < slice; i++) {
                    spring.accept(i);
                }
                long t1 = System.nanoTime();
                for (int i = 0; i < slice; i++) {
                    hand.accept(i);
                }
                long t2 = System.nanoTime();
                springNanos += t1 - t0;
                handNanos += t2 - t1;
            }
            if (round >= 0) {
                springRuns[round] = (double) springNanos / ops;
                handRuns[round] = (double) handNanos / ops;
            }
        }
        Arrays.sort(springRuns);
        Arrays.sort(handRuns);
        return new double[] {springRuns[rounds / 2], handRuns[rounds / 2]};
    }

    private static void report(String name, double[] nanos) {
        double spring = nanos[0] / 1000;
        double hand = nanos[1] / 1000;
        System.out.printf(
                Locale.ROOT,
                "| %s | %.0f | %.0f | %.1f | %.1f | %.2f× |%n",
                name,
                1e6 / spring,
                1e6 / hand,
                spring,
                hand,
                spring / hand);
    }

    private static Object handRead(Ledger ledger) {
        return ledger.read(c -> {
            try (PreparedStatement s =
                    c.prepareStatement("SELECT value, revision FROM setting_section WHERE section = ?")) {
                s.setString(1, "editor");
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    return List.of(JSON.readTree(rs.getString(1)), rs.getLong(2));
                }
            }
        });
    }

    private static Object handConversation(Ledger ledger, String id) {
        return ledger.read(c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT id, project_id, title, revision, draft, draft_revision, connection_id, model,"
                            + " created_at, updated_at, tools FROM chat_conversation WHERE id = ?")) {
                s.setString(1, id);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    return new Object[] {
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getLong(4),
                        rs.getString(5),
                        rs.getLong(6),
                        rs.getString(7),
                        rs.getString(8),
                        rs.getLong(9),
                        rs.getLong(10),
                        rs.getInt(11)
                    };
                }
            }
        });
    }

    private static Object handMessages(Ledger ledger, String id) {
        return ledger.read(c -> {
            List<Object[]> all = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT id, conversation_id, seq, parent_id, role, status, content, connection_id, model,"
                            + " request_id, error, created_at, updated_at FROM chat_message WHERE conversation_id = ? ORDER BY seq")) {
                s.setString(1, id);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        all.add(new Object[] {
                            rs.getString(1),
                            rs.getString(2),
                            rs.getLong(3),
                            rs.getString(4),
                            rs.getString(5),
                            rs.getString(6),
                            rs.getString(7),
                            rs.getString(8),
                            rs.getString(9),
                            rs.getString(10),
                            rs.getString(11),
                            rs.getLong(12),
                            rs.getLong(13)
                        });
                    }
                }
            }
            return all;
        });
    }

    private static void handCheckpoint(java.sql.Connection c, String id, String content) throws java.sql.SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "UPDATE chat_message SET content = ?, updated_at = ? WHERE id = ? AND status = 'streaming'")) {
            s.setString(1, content);
            s.setLong(2, System.currentTimeMillis());
            s.setString(3, id);
            s.executeUpdate();
        }
    }

    private static void handTools(java.sql.Connection c, String id, boolean tools) throws java.sql.SQLException {
        try (PreparedStatement s =
                c.prepareStatement("UPDATE chat_conversation SET tools = ?, updated_at = ? WHERE id = ?")) {
            s.setInt(1, tools ? 1 : 0);
            s.setLong(2, System.currentTimeMillis());
            s.setString(3, id);
            s.executeUpdate();
        }
    }

    private static int intArg(String[] args, String prefix, int fallback) {
        return Arrays.stream(args)
                .filter(a -> a.startsWith(prefix))
                .map(a -> Integer.parseInt(a.substring(prefix.length())))
                .findFirst()
                .orElse(fallback);
    }
}
