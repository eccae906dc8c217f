package dev.lomicontrol.proof.fault;

import dev.lomicontrol.testing.BrokerChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * The shared bench of the fault suite: one project directory whose {@code created/} holds every
 * effect, an empty HOME for the brokers' shells, and two template stores made once by a real
 * broker, the console and the helper (one project, YOLO on, {@link #acknowledged} creates that
 * succeeded, then a {@code ledger export} to {@link #backup}): the store as SIGKILL left it (WAL
 * and {@code -shm} with committed, uncheckpointed frames) and the same store after a clean
 * restart and stop. Each fault copies one onto its own medium, so it needs no setup run.
 */
final class FaultLab {

    /** The requestKey prefix of the template's acknowledged creates. */
    static final String TEMPLATE = "tpl";

    final Path work;
    final Path project;
    final Path backup;
    private final Path home;
    private final Path killed;
    private final Path clean;
    private final Path logs;
    private final List<String> acknowledged = new ArrayList<>();
    /** The page size and the receipts table's root page of the clean template (read beside its last broker run). */
    long pageSize;

    long receiptRootPage;
    private String discoveryKey = "";
    private ObjectNode sampleRequest = AgentClient.object();
    private int runs;

    private FaultLab(Path work) {
        this.work = work;
        this.project = work.resolve("project");
        this.home = work.resolve("empty-home");
        this.killed = work.resolve("template-killed").resolve("data");
        this.clean = work.resolve("template").resolve("data");
        this.backup = work.resolve("template-backup.sqlite3");
        this.logs = work.resolve("logs");
    }

    /** Creates the project and both template stores through real processes. */
    static FaultLab prepare(Path work) throws Exception {
        FaultLab lab = new FaultLab(work);
        Files.createDirectories(lab.project.resolve(AgentClient.CREATED));
        Files.createDirectories(lab.home);
        Files.createDirectories(lab.logs);
        BrokerChildProcess broker = lab.start(lab.clean, "template");
        try {
            broker.withProjectAndYolo(lab.project.toRealPath());
            try (AgentClient agent = lab.agent(broker, "template")) {
                lab.acknowledged.addAll(lab.acknowledge(agent, TEMPLATE, 3));
                lab.sampleRequest = agent.createRequest(TEMPLATE + "-sample");
            }
            broker.console().in(work).mergingStderr().ok("ledger", "export", lab.backup.toString());
            lab.discoveryKey = broker.discoveryKey();
        } finally {
            broker.kill();
        }
        Shell.copyTree(lab.clean, lab.killed);
        BrokerChildProcess restarted = lab.start(lab.clean, "template-clean");
        try {
            long[] page = StoreView.receiptTablePage(lab.clean);
            lab.pageSize = page[0];
            lab.receiptRootPage = page[1];
        } finally {
            restarted.stop();
        }
        return lab;
    }

    /** A copy of the cleanly stopped template store at {@code parent/data} (modes and owners kept). */
    Path dataIn(Path parent) throws Exception {
        Path data = parent.resolve("data");
        Shell.copyTree(clean, data);
        return data;
    }

    /** A copy of the template store as the SIGKILL left it, at {@code parent/data}. */
    Path killedDataIn(Path parent) throws Exception {
        Path data = parent.resolve("data");
        Shell.copyTree(killed, data);
        return data;
    }

    /** The template's acknowledged creates (receipts {@code succeeded/complete}, files in the project). */
    List<String> acknowledged() {
        return List.copyOf(acknowledged);
    }

    /** A helper pinned to the template's key that has not (yet) reached any broker. */
    AgentClient unconnectedAgent(Path data, String name) throws Exception {
        return AgentClient.launch(
                data.resolve("agent-control").resolve("discovery.json"),
                discoveryKey,
                logs.resolve(name + ".helper.err"));
    }

    /** A well-formed create request for {@code key} (the template's workspace, epoch and revisions). */
    ObjectNode createRequest(String key) {
        ObjectNode request = sampleRequest.deepCopy();
        ((ObjectNode) request.path("operation")).put("relativePath", AgentClient.CREATED + "/" + key);
        return request.put("requestKey", key);
    }

    BrokerChildProcess start(Path data, String name) throws Exception {
        return start(data, name, List.of());
    }

    BrokerChildProcess start(Path data, String name, List<String> prefix) throws Exception {
        return BrokerChildProcess.on(data)
                .log(log(name))
                .home(home)
                .wrappedIn(prefix)
                .start();
    }

    BrokerChildProcess.Refusal refusedStart(Path data, String name) throws Exception {
        return BrokerChildProcess.on(data).log(log(name)).home(home).refused();
    }

    AgentClient agent(BrokerChildProcess broker, String name) throws Exception {
        return AgentClient.connect(broker, logs.resolve(name + ".helper.err"));
    }

    /** Creates {@code count} files under fresh keys {@code prefix-ack-N}; each must succeed. Answers the keys. */
    List<String> acknowledge(AgentClient agent, String prefix, int count) throws Exception {
        List<String> keys = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            String key = prefix + "-ack-" + i;
            AgentClient.Answer answer = agent.create(agent.createRequest(key));
            if (!answer.succeeded()) {
                throw new AssertionError("setup create " + key + " answered " + answer.raw());
            }
            keys.add(key);
        }
        return keys;
    }

    /** The effect of {@code key}: its file in {@code created/}. */
    boolean effect(String key) {
        return Files.exists(project.resolve(AgentClient.CREATED).resolve(key));
    }

    /** Acknowledged operations whose receipt or file is gone (read beside a running broker). */
    int lost(Path data, String prefix, List<String> acknowledged) throws Exception {
        Map<String, String> receipts = StoreView.receipts(data, prefix);
        return (int) acknowledged.stream()
                .filter(key -> !receipts.containsKey(key) || !effect(key))
                .count();
    }

    /** Acknowledged operations whose receipt is still there but no longer says {@code succeeded/complete}. */
    int replaced(Path data, String prefix, List<String> acknowledged) throws Exception {
        Map<String, String> receipts = StoreView.receipts(data, prefix);
        return (int) acknowledged.stream()
                .filter(key -> receipts.containsKey(key) && !receipts.get(key).equals("succeeded/complete"))
                .count();
    }

    private Path log(String name) {
        return logs.resolve(String.format("%02d-%s.err", ++runs, name));
    }
}
