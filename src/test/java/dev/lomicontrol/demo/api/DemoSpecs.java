package dev.lomicontrol.demo.api;

import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.ScopeNeed;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/**
 * A throwaway feature's contract (the dry run of "a feature is a plug-in"): one read and one
 * durable operation, declared exactly as the product's features declare theirs.
 */
public final class DemoSpecs {

    private DemoSpecs() {}

    public record EchoInput(
            @Doc("what to echo") @Len(min = 1, max = 64) String text) {}

    public record Echoed(@Doc("the text, as sent") String text) {}

    public record NoteInput(
            WorkspaceId workspaceId,
            @Doc("what to note") @Len(min = 1, max = 64) String text,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable {}

    @Tag("demo_noted")
    public record Noted(
            @Doc("the note") String text,
            @Doc("how many notes the feature holds") int notes) {}

    public static final ToolSpec<EchoInput> ECHO = ToolSpec.read(
            "lomi_demo_echo", "Echo", "workspace.read", "R-I-", EchoInput.class, Echoed.class, "Echoes a text.");

    public static final ToolSpec<NoteInput> NOTE = ToolSpec.operation(
                    "lomi_demo_note",
                    "Note",
                    "workspace.read",
                    "--I-",
                    NoteInput.class,
                    Noted.class,
                    "Keeps a note, once per requestKey; a note starting with '!' also needs terminal.read.")
            .withVariantScopes(in -> in.text().startsWith("!")
                    ? List.of(ScopeNeed.of("terminal.read", "a note starting with '!' needs terminal.read"))
                    : List.of());

    public static final List<ToolSpec<?>> ALL = List.of(ECHO, NOTE);
}
