package dev.lomicontrol.demo.tools;

import dev.lomicontrol.demo.api.DemoSpecs;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Encoder;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.node.ObjectNode;

/**
 * The throwaway feature's handlers, built only from shared parts. In {@code src/main} it would carry
 * {@code @Component} like every feature; here, in the test tree, that would add it to every Spring
 * context the tests start.
 */
public final class DemoFeature implements ToolFeature {

    private final WorkspaceAccess workspaces;
    private final OperationRunner runner;
    /** What the notes did: the test checks that a repeated requestKey never notes twice. */
    public final List<String> notes = new CopyOnWriteArrayList<>();

    public DemoFeature(WorkspaceAccess workspaces, OperationRunner runner) {
        this.workspaces = workspaces;
        this.runner = runner;
    }

    @Override
    public void register(Wiring wiring) {
        wiring.handlers().on(DemoSpecs.ECHO, (session, in) -> new DemoSpecs.Echoed(in.text()));
        wiring.handlers().on(DemoSpecs.NOTE, this::note);
    }

    private ObjectNode note(Session session, DemoSpecs.NoteInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        return runner.immediate(
                OperationRunner.Request.of(session, DemoSpecs.NOTE, in, listed, "note", OptionalLong.empty()),
                () -> {},
                operation -> {
                    notes.add(in.text());
                    return Encoder.encode(new DemoSpecs.Noted(in.text(), notes.size()));
                });
    }
}
