package dev.lomicontrol.console;

import dev.lomicontrol.browser.BrowserPage;
import dev.lomicontrol.browser.Browsers;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.Visible;
import dev.lomicontrol.operations.PanelsByKind;
import dev.lomicontrol.projects.PanelKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.springframework.shell.core.command.CommandContext;
import org.springframework.shell.core.command.annotation.Argument;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.shell.core.command.annotation.Option;
import org.springframework.stereotype.Component;

/**
 * {@code browser screenshot <panel>}: what an agent's browser panel shows now (its viewport, at the
 * page's own pixel size), written as a PNG file for the admin. The live browser behind a panel is
 * the one its feature answers for ({@link dev.lomicontrol.operations.LivePanels#browserGeneration});
 * taking the picture changes nothing the agent sees (a hidden browser stays hidden).
 */
@Component
class BrowserScreenshots implements CommandGroup {

    /** Wider than any viewport a browser here opens with (1280 CSS pixels): the picture is never scaled down. */
    static final int MAX_WIDTH = 16_384;

    private final Browsers browsers;
    private final PanelFinder panels;
    private final PanelsByKind live;

    BrowserScreenshots(Browsers browsers, PanelFinder panels, PanelsByKind live) {
        this.browsers = browsers;
        this.panels = panels;
        this.live = live;
    }

    @Command(
            name = "browser screenshot",
            group = "Browser",
            description = "Save what an agent's browser panel shows now as a PNG",
            help =
                    "browser screenshot <panel> [--out FILE] [--force] [--json]\n  The viewport of the panel's live browser as a PNG (0600), written"
                            + " atomically to FILE (relative to the\n  console's working directory; default ./<panel>.png); an existing file is"
                            + " replaced only with --force.\n  Answers the file, its size in pixels and bytes. --json: one JSON document.")
    public String screenshot(
            @Argument(index = 0, description = "panel") String panel,
            @Option(longName = "out", description = "the PNG file to write (default ./<panel>.png)") String out,
            @Option(longName = "force", description = "replace an existing file", defaultValue = "false") boolean force,
            @Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json,
            CommandContext context) {
        String panelId = Text.required(panel, "panel");
        BrowserPage page = live(panelId);
        Path file = Caller.of(context).resolve(out == null || out.isBlank() ? fileName(panelId) : out.strip());
        requireWritable(file, force);
        byte[] png = page.screenshot(MAX_WIDTH).png();
        int width = pngDimension(png, 16);
        int height = pngDimension(png, 20);
        write(file, png, force);
        if (json) {
            return ConsoleJson.write(new ConsoleJson.Screenshot(
                    panelId, page.generation(), page.url(), file.toString(), width, height, png.length));
        }
        return "wrote " + file + ": " + width + "x" + height + " pixels, " + png.length + " bytes (PNG)\n  panel "
                + panelId + " browser " + page.generation() + " at " + Visible.line(page.url());
    }

    /** The live page a browser panel shows; TARGET_NOT_FOUND for an unknown panel, another kind, or a closed browser. */
    private BrowserPage live(String panelId) {
        PanelFinder.Found found = panels.find(panelId, PanelKind.BROWSER);
        String closed = "panel " + panelId + " shows no live browser (it closed: idle, crashed, closed by its agent,"
                + " or its agent's connection or the broker ended)";
        String generation = live.browserGeneration(found.panel())
                .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, closed));
        return browsers.find(generation)
                .filter(BrowserPage::isAlive)
                .orElseThrow(() -> new LomiException(ErrorCode.TARGET_NOT_FOUND, closed));
    }

    /** {@code <panel>.png}, the panel id kept to the characters a file name takes as they are. */
    static String fileName(String panelId) {
        return panelId.replaceAll("[^A-Za-z0-9._-]", "_") + ".png";
    }

    private static void requireWritable(Path file, boolean force) {
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, file + " is a directory; name a file with --out");
        }
        Path directory = file.getParent();
        if (directory == null || !Files.isDirectory(directory)) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, "no directory " + directory + " to write " + file);
        }
        if (!force && Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    file + " already exists; add --force to replace it, or name another --out");
        }
    }

    private static void write(Path file, byte[] png, boolean force) {
        try {
            if (force) {
                AtomicFiles.write(file, png, AtomicFiles.PRIVATE);
            } else {
                AtomicFiles.create(file, png, AtomicFiles.PRIVATE);
            }
        } catch (FileAlreadyExistsException e) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    file + " already exists; add --force to replace it, or name another --out");
        } catch (IOException e) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** The big-endian width (offset 16) or height (offset 20) of a PNG's IHDR chunk. */
    static int pngDimension(byte[] png, int offset) {
        if (png.length < 24) {
            throw new LomiException(ErrorCode.APP_UNAVAILABLE, "the browser answered no PNG image");
        }
        return ByteBuffer.wrap(png, offset, 4).getInt();
    }
}
