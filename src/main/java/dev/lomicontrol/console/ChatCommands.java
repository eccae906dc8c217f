package dev.lomicontrol.console;

import dev.lomicontrol.chat.Chat;
import dev.lomicontrol.chat.ChatMessage;
import dev.lomicontrol.chat.Conversation;
import dev.lomicontrol.chat.Conversations;
import dev.lomicontrol.chat.ModelConnection;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import java.util.List;
import java.util.Optional;
import org.springframework.shell.core.command.annotation.Argument;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.shell.core.command.annotation.Option;
import org.springframework.stereotype.Component;

/**
 * {@code chat connection add | list | remove} and {@code chat list | show | new | say | share}: the
 * admin's model connections (keys named by an environment variable or a 0600 file, never typed here
 * or stored) and the human side of the shared conversations.
 */
@Component
class ChatCommands implements CommandGroup {

    private final Chat chat;
    private final Projects projects;

    ChatCommands(Chat chat, Projects projects) {
        this.chat = chat;
        this.projects = projects;
    }

    @Command(
            name = "chat connection add",
            group = "Chat",
            description = "Add a model connection (OpenAI-compatible or Anthropic)",
            help =
                    "chat connection add <id> --kind openai|anthropic --base-url URL --model NAME [--api-key-env VAR | --api-key-file PATH]"
                            + " [--max-output-tokens N]\n  OpenAI-compatible endpoints (OpenAI, Ollama, vLLM, LM Studio, llama.cpp) take the base URL with"
                            + " its /v1 (e.g. http://127.0.0.1:11434/v1);\n  Anthropic takes https://api.anthropic.com. The key is read when a request"
                            + " starts from the broker's environment\n  variable VAR or from PATH (a regular 0600 file of the broker's user); it is never"
                            + " stored, shown or logged.")
    public String connectionAdd(
            @Argument(index = 0, description = "id") String id,
            @Option(longName = "kind", description = "openai|anthropic") String kind,
            @Option(longName = "base-url", description = "the provider's base URL") String baseUrl,
            @Option(longName = "model", description = "the model name") String model,
            @Option(longName = "api-key-env", description = "environment variable holding the key") String keyEnv,
            @Option(longName = "api-key-file", description = "0600 file holding the key") String keyFile,
            @Option(longName = "max-output-tokens", description = "output token limit per reply", defaultValue = "4096")
                    int maxOutputTokens) {
        ModelConnection connection = chat.connections()
                .add(new ModelConnection(
                        Text.required(id, "id"),
                        ModelConnection.Kind.fromWire(Text.required(kind, "--kind")),
                        Text.required(baseUrl, "--base-url"),
                        Text.required(model, "--model"),
                        blank(keyEnv),
                        blank(keyFile),
                        maxOutputTokens));
        return "added connection " + connection.id() + " (" + connection.kind().wire() + " " + connection.baseUrl()
                + ", model " + connection.model() + ", key " + connection.keySource() + ")";
    }

    @Command(
            name = "chat connection list",
            group = "Chat",
            description = "List model connections",
            help =
                    "chat connection list [--json]\n  Each connection: id, kind, base URL, model, output token limit and where its key comes from (never the key).")
    public String connectionList(
            @Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json) {
        List<ModelConnection> all = chat.connections().list();
        if (json) {
            return ConsoleJson.write(new ConsoleJson.ChatConnections(all.stream()
                    .map(c -> new ConsoleJson.ChatConnection(
                            c.id(), c.kind().wire(), c.baseUrl(), c.model(), c.maxOutputTokens(), c.keySource()))
                    .toList()));
        }
        if (all.isEmpty()) {
            return "no model connections; add one with: chat connection add <id> --kind openai|anthropic --base-url URL --model NAME";
        }
        Table table = new Table("ID", "KIND", "BASE URL", "MODEL", "MAX TOKENS", "KEY");
        all.forEach(
                c -> table.row(c.id(), c.kind().wire(), c.baseUrl(), c.model(), c.maxOutputTokens(), c.keySource()));
        return table.toString();
    }

    @Command(
            name = "chat connection remove",
            group = "Chat",
            description = "Remove a model connection",
            help =
                    "chat connection remove <id>\n  Later sends through it are refused; conversations keep their messages.")
    public String connectionRemove(@Argument(index = 0, description = "id") String id) {
        chat.connections().remove(Text.required(id, "id"));
        return "removed connection " + id;
    }

    @Command(
            name = "chat list",
            group = "Chat",
            description = "List chat conversations",
            help =
                    "chat list [--project ID|NAME] [--json]\n  Every conversation: id, project, title, conversationRevision, messages, who it is shared with.")
    public String list(
            @Option(longName = "project", description = "only this project") String project,
            @Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json) {
        Optional<Project> only = blank(project).map(this::project);
        List<Conversation> all = chat.conversations().list(only.map(Project::id));
        if (json) {
            return ConsoleJson.write(new ConsoleJson.Chats(all.stream()
                    .map(c -> new ConsoleJson.Chat(
                            c.id(),
                            c.project().value(),
                            c.title(),
                            c.conversationRevision(),
                            c.draftRevisionToken(),
                            chat.conversations().messages(c.id()).size(),
                            c.tools(),
                            chat.conversations().shares(c.id()).stream()
                                    .map(s -> s.kind() + ":" + s.value())
                                    .toList(),
                            c.updatedAt().toString()))
                    .toList()));
        }
        if (all.isEmpty()) {
            return "no conversations; start one with: chat new [--title TITLE]";
        }
        Table table = new Table("ID", "PROJECT", "TITLE", "REVISION", "MESSAGES", "SHARED WITH");
        all.forEach(c -> table.row(
                c.id(),
                c.project(),
                c.title(),
                c.conversationRevision(),
                chat.conversations().messages(c.id()).size(),
                String.join(
                        ",",
                        chat.conversations().shares(c.id()).stream()
                                .map(s -> s.kind() + ":" + s.value())
                                .toList())));
        return table.toString();
    }

    @Command(
            name = "chat show",
            group = "Chat",
            description = "Show a conversation's messages and draft",
            help =
                    "chat show <id>\n  The title, revisions, the draft, who it is shared with, and every message as saved (a streaming reply shows"
                            + " its latest checkpoint).")
    public String show(@Argument(index = 0, description = "id") String id) {
        Conversation c = conversation(id);
        StringBuilder out = new StringBuilder();
        out.append(c.id())
                .append("  '")
                .append(c.title())
                .append("'  project ")
                .append(c.project())
                .append("  ")
                .append(c.conversationRevision())
                .append("  draft ")
                .append(c.draftRevisionToken())
                .append('\n');
        out.append("shared with: ")
                .append(String.join(
                        ", ",
                        chat.conversations().shares(c.id()).stream()
                                .map(s -> s.kind() + ":" + s.value())
                                .toList()))
                .append('\n');
        for (ChatMessage m : chat.conversations().messages(c.id())) {
            out.append("\n[").append(m.id()).append("] ").append(m.role());
            m.model()
                    .ifPresent(model -> out.append(" (")
                            .append(model)
                            .append(" via ")
                            .append(m.connectionId().orElse("?"))
                            .append(')'));
            if (!m.status().equals("complete")) {
                out.append(" ").append(m.status());
            }
            m.error().ifPresent(e -> out.append(": ").append(e));
            out.append('\n').append(m.content()).append('\n');
        }
        if (!c.draft().isEmpty()) {
            out.append("\ndraft:\n").append(c.draft()).append('\n');
        }
        return out.toString().stripTrailing();
    }

    @Command(
            name = "chat new",
            group = "Chat",
            description = "Start a conversation",
            help =
                    "chat new [--title TITLE] [--project ID|NAME]\n  A new empty conversation of the project (the only one, when there is one);"
                            + " share it with agents by chat share.")
    public String create(
            @Option(longName = "title", description = "title", defaultValue = "Chat") String title,
            @Option(longName = "project", description = "the project (default: the only one)") String project) {
        Project owner = blank(project).map(this::project).orElseGet(this::onlyProject);
        Conversation c = chat.conversations()
                .create(owner.id(), title == null || title.isBlank() ? "Chat" : title.strip(), Optional.empty());
        return "created conversation " + c.id() + " '" + c.title() + "' in project " + owner.id() + " ("
                + c.conversationRevision() + ")";
    }

    @Command(
            name = "chat say",
            group = "Chat",
            description = "Add your own message (and let the model answer)",
            help =
                    "chat say <id> <text> [--connection ID]\n  Your message is added at once (no approval: you are the admin). With a"
                            + " connection (named, else the one the\n  conversation used last) its model answers; the reply streams into the"
                            + " conversation (chat show).")
    public String say(
            @Argument(index = 0, description = "id") String id,
            @Argument(index = 1, description = "text") String text,
            @Option(longName = "connection", description = "the model connection") String connection) {
        Optional<ChatMessage> reply = chat.say(conversation(id).id(), Text.required(text, "text"), blank(connection));
        return reply.map(m -> "added your message; " + m.model().orElse("the model") + " answers in " + m.id()
                        + " (request " + m.requestId().orElse("?") + ")")
                .orElse("added your message (no connection: no model answers)");
    }

    @Command(
            name = "chat tools",
            group = "Chat",
            description = "Let a conversation's model use the broker's tools (the Chat AI), or stop it",
            help =
                    "chat tools <id> on|off\n  on: its replies may call the lomi_* tools, over a broker session of its own that pairs like any client"
                            + "\n  (pairing list shows 'lomi Chat AI <id>'; approve it as any client; it never gets chat.* scopes). At most 128 calls,"
                            + "\n  64 KiB of arguments per call, 8 MiB per result and 16 MiB of results per request.")
    public String tools(
            @Argument(index = 0, description = "id") String id,
            @Argument(index = 1, description = "on|off") String state) {
        String value = Text.required(state, "on|off");
        if (!value.equals("on") && !value.equals("off")) {
            throw new UsageException("chat tools <id> on|off");
        }
        chat.conversations().setTools(conversation(id).id(), value.equals("on"));
        return "the model of " + id
                + (value.equals("on") ? " may use tools (through its own paired session)" : " uses no tools");
    }

    @Command(
            name = "chat share",
            group = "Chat",
            description = "Share a conversation with a client or a session",
            help =
                    "chat share <id> (--client LABEL | --session ID) [--revoke]\n  Agents see only conversations shared with them:"
                            + " --client shares with every session of that client label\n  (as pairing list shows it), --session with one"
                            + " live session. --revoke stops sharing.")
    public String share(
            @Argument(index = 0, description = "id") String id,
            @Option(longName = "client", description = "client label") String client,
            @Option(longName = "session", description = "session id") String session,
            @Option(longName = "revoke", description = "stop sharing", defaultValue = "false") boolean revoke) {
        Optional<String> label = blank(client);
        Optional<String> one = blank(session);
        if (label.isPresent() == one.isPresent()) {
            throw new UsageException("name exactly one of --client LABEL or --session ID");
        }
        Conversations.Share share =
                label.map(Conversations.Share::client).orElseGet(() -> Conversations.Share.session(one.get()));
        chat.conversations().share(conversation(id).id(), share, revoke);
        return (revoke ? "stopped sharing " : "shared ") + id + (revoke ? " with " : " with ") + share.kind() + " "
                + share.value();
    }

    private Conversation conversation(String id) {
        return chat.conversations()
                .find(Text.required(id, "id"))
                .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no conversation " + id));
    }

    private Project project(String idOrName) {
        return projects.find(idOrName)
                .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, "no project " + idOrName));
    }

    private Project onlyProject() {
        List<Project> all = projects.list();
        if (all.size() != 1) {
            throw new UsageException(
                    all.isEmpty()
                            ? "no projects; add one with: project add <path>"
                            : "name the project with --project");
        }
        return all.get(0);
    }

    private static Optional<String> blank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }
}
