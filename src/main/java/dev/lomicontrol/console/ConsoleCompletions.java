package dev.lomicontrol.console;

import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.pairing.PairingRequest;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.shell.core.command.completion.CompletionContext;
import org.springframework.shell.core.command.completion.CompletionProposal;
import org.springframework.shell.core.command.completion.CompletionProvider;

/**
 * The commands' Spring Shell completion providers (named in {@code @Command(completionProvider)}):
 * positional arguments when no option is being completed, otherwise that option's values. Lists
 * ({@code --projects a,b}) complete the item after the last comma.
 */
@Configuration(proxyBeanMethods = false)
class ConsoleCompletions {

    @Bean
    CompletionProvider pairingCompletions(Pairings pairings, Projects projects) {
        return context -> switch (option(context)) {
            case "" ->
                proposals(pairings.pending().stream().map(PairingRequest::id).toList());
            case "projects" ->
                listItems(context, projects.list().stream().map(Project::name).toList());
            case "scopes" -> listItems(context, Scopes.known());
            default -> List.of();
        };
    }

    @Bean
    CompletionProvider sessionCompletions(Sessions sessions) {
        return context -> option(context).isEmpty()
                ? proposals(sessions.list().stream().map(s -> s.id().value()).toList())
                : List.of();
    }

    @Bean
    CompletionProvider projectCompletions(Projects projects) {
        return context -> option(context).isEmpty()
                ? proposals(projects.list().stream().map(Project::name).toList())
                : List.of();
    }

    /** {@code panel list --workspace}: every project's workspace ids. */
    @Bean
    CompletionProvider workspaceCompletions(Projects projects) {
        return context -> option(context).equals("workspace")
                ? proposals(projects.list().stream()
                        .flatMap(p -> p.workspaces().stream())
                        .map(w -> w.id().value())
                        .toList())
                : List.of();
    }

    @Bean
    CompletionProvider ledgerCompletions(Ledger ledger) {
        return context -> switch (option(context)) {
            case "" ->
                proposals(ledger.maintenance().operations(Optional.of(OperationState.OUTCOME_UNKNOWN), 100).stream()
                        .filter(o -> o.resolution().isEmpty())
                        .map(o -> o.id().value())
                        .toList());
            case "state" ->
                proposals(Arrays.stream(OperationState.values())
                        .map(OperationState::wire)
                        .toList());
            case "resolution" -> proposals(List.of("succeeded", "failed", "cancelled"));
            default -> List.of();
        };
    }

    @Bean
    CompletionProvider decisionCompletions(DecisionBoard board) {
        return context -> option(context).isEmpty()
                ? proposals(board.list().stream()
                        .map(d -> d.operationId())
                        .map(OperationId::value)
                        .toList())
                : List.of();
    }

    @Bean
    CompletionProvider clientCompletions() {
        return context -> switch (option(context)) {
            case "scope" -> proposals(List.of("user", "project"));
            case "toolsets" -> {
                List<String> names = new ArrayList<>(List.of("all"));
                java.util.Arrays.stream(dev.lomicontrol.tools.Toolset.values())
                        .map(dev.lomicontrol.tools.Toolset::wireName)
                        .forEach(names::add);
                yield listItems(context, names);
            }
            case "" -> proposals(McpClient.ids());
            default -> List.of();
        };
    }

    @Bean
    CompletionProvider helpCompletions(ObjectProvider<CommandShapes> shapes) {
        return context -> {
            List<String> words = context.getWords();
            int help = words.indexOf("help");
            return proposals(shapes.getObject().nextWords(words.subList(help + 1, words.size() - 1)));
        };
    }

    private static String option(CompletionContext context) {
        return context.getCommandOption() == null || context.getCommandOption().longName() == null
                ? ""
                : context.getCommandOption().longName();
    }

    private static List<CompletionProposal> proposals(Collection<String> values) {
        List<CompletionProposal> out = new ArrayList<>();
        values.forEach(v -> out.add(new CompletionProposal(v)));
        return out;
    }

    private static List<CompletionProposal> listItems(CompletionContext context, Collection<String> items) {
        String current = context.currentWord() == null ? "" : context.currentWord();
        String prefix = current.contains(",") ? current.substring(0, current.lastIndexOf(',') + 1) : "";
        List<String> values = new ArrayList<>();
        items.forEach(item -> values.add(prefix + item));
        return proposals(values);
    }
}
