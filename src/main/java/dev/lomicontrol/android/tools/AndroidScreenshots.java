package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.artifacts.Artifact;
import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.ImageBlock;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_android_screenshot}: {@code screencap -p} through {@code exec:} (the PNG byte for
 * byte), passed on as it came when it already fits, else decoded, scaled so that its longer edge is at
 * most {@code maxEdge} and it has at most 2 Mpx, re-encoded as PNG and made smaller again (by
 * quarters) until it is at most {@code maxBytes}; stored
 * as an artifact of the caller and answered with an MCP image block, as the browser's screenshot.
 */
final class AndroidScreenshots {

    static final Duration DEADLINE = Duration.ofSeconds(15);
    /** The most a capture may send: a 4K RGBA screen stored uncompressed is about 33 MiB. */
    static final int MAX_CAPTURE = 48 * 1024 * 1024;

    static final long MAX_PIXELS = 2_000_000;
    private static final byte[] IEND = {0, 0, 0, 0, 'I', 'E', 'N', 'D', (byte) 0xAE, 0x42, 0x60, (byte) 0x82};
    /** The largest screen decoded: 8K (7680x4320) is 33 Mpx; a PNG declaring more is refused unread. */
    static final long MAX_SOURCE_PIXELS = 40_000_000;

    private final ArtifactStore artifacts;
    private final PanelTargets panels;
    private final AndroidPanels live;

    AndroidScreenshots(ArtifactStore artifacts, PanelTargets panels, AndroidPanels live) {
        this.artifacts = artifacts;
        this.panels = panels;
        this.live = live;
    }

    ObjectNode screenshot(Session session, AndroidSpecs.ScreenshotInput in) {
        AndroidPanels.Bound bound = live.bound(session, in.workspaceId(), in.panelId(), in.deviceId(), in.generation());
        String project =
                panels.workspace(session, in.workspaceId()).project().id().value();
        byte[] captured = live.observe(
                bound,
                () -> bound.devices().bridge().exec(bound.serial(), List.of("screencap", "-p"), DEADLINE, MAX_CAPTURE));
        Capture capture = scaledToFit(captured, in.maxEdge(), in.maxBytes());
        Artifact artifact = artifacts.capture(
                session.id().value(), project, "image/png", "android:" + bound.deviceId(), capture.png());
        ObjectNode data = (ObjectNode) Encoder.encode(new AndroidResults.Screenshot(new AndroidResults.Artifact(
                artifact.id(),
                artifact.mediaType(),
                artifact.byteLength(),
                artifact.sha256(),
                Long.toString(artifact.createdAt().getEpochSecond()),
                Long.toString(artifact.expiresAt().getEpochSecond()),
                new AndroidResults.ArtifactSource(
                        in.workspaceId(), bound.panelId(), bound.deviceId(), bound.generation(), "android.capture"),
                geometry(capture.hardwareWidth(), capture.hardwareHeight(), capture.width(), capture.height()))));
        data.put(ImageBlock.FIELD, Base64.getEncoder().encodeToString(capture.png()));
        return data;
    }

    /** The PNG answered and its size, and the screen's. */
    private record Capture(byte[] png, int width, int height, int hardwareWidth, int hardwareHeight) {}

    /**
     * The device's PNG as it came when it already fits (longer edge at most {@code maxEdge}, at most
     * {@link #MAX_PIXELS}, at most {@code maxBytes}: nothing is decoded); else decoded, scaled to fit
     * and re-encoded, made smaller by quarters until it fits {@code maxBytes}.
     */
    private static Capture scaledToFit(byte[] captured, int maxEdge, long maxBytes) {
        Decoded source = decode(captured);
        int width = source.width();
        int height = source.height();
        double scale = Math.min(
                1.0,
                Math.min(
                        (double) maxEdge / Math.max(width, height),
                        Math.sqrt((double) MAX_PIXELS / ((double) width * height))));
        if (scale == 1.0 && captured.length <= maxBytes && source.wholePng()) {
            return new Capture(captured, width, height, width, height);
        }
        BufferedImage screen = source.pixels().get();
        BufferedImage image = scaled(screen, scale);
        byte[] png = encode(image);
        while (png.length > maxBytes) {
            scale *= 0.75;
            if (Math.max(width, height) * scale < 16) {
                throw new LomiException(
                        ErrorCode.ARTIFACT_TOO_LARGE,
                        "the screenshot does not fit in maxBytes " + maxBytes + " even at 16 pixels; raise maxBytes");
            }
            image = scaled(screen, scale);
            png = encode(image);
        }
        return new Capture(png, image.getWidth(), image.getHeight(), width, height);
    }

    /** The reference's AndroidImageGeometry: the sizes, the rotation (the capture is in display orientation), the scales and the image-to-hardware transform. */
    private static ObjectNode geometry(int hardwareWidth, int hardwareHeight, int width, int height) {
        ObjectNode geometry = JsonNodeFactory.instance.objectNode();
        double sx = (double) hardwareWidth / width;
        double sy = (double) hardwareHeight / height;
        geometry.put("hardwareWidth", hardwareWidth)
                .put("hardwareHeight", hardwareHeight)
                .put("imageWidth", width)
                .put("imageHeight", height)
                .put("rotation", 0)
                .put("scaleX", (double) width / hardwareWidth)
                .put("scaleY", (double) height / hardwareHeight);
        geometry.putArray("imageToHardware")
                .add(sx)
                .add(0.0)
                .add(0.0)
                .add(sy)
                .add(0.0)
                .add(0.0);
        return geometry;
    }

    /** A PNG's declared size, its pixels decoded only when asked for. */
    private record Decoded(int width, int height, boolean wholePng, Supplier<BufferedImage> pixels) {}

    /**
     * The device's PNG, checked by its header: one that declares more than {@link #MAX_SOURCE_PIXELS}
     * pixels is refused before its pixels are read, and its pixels are decoded (and checked) only when
     * asked for.
     */
    private static Decoded decode(byte[] png) {
        try (ImageInputStream input = ImageIO.createImageInputStream(new ByteArrayInputStream(png))) {
            ImageReader reader = reader(input, png.length);
            try {
                long width = reader.getWidth(0);
                long height = reader.getHeight(0);
                if (width < 1 || height < 1 || width * height > MAX_SOURCE_PIXELS) {
                    throw new LomiException(
                            ErrorCode.UNSUPPORTED_CAPABILITY,
                            "screencap -p answered a " + width + "x" + height + " image; at most " + MAX_SOURCE_PIXELS
                                    + " pixels are decoded");
                }
                boolean wholePng = reader.getFormatName().equalsIgnoreCase("png") && endsWithIend(png);
                return new Decoded((int) width, (int) height, wholePng, () -> pixels(png));
            } finally {
                reader.dispose();
            }
        } catch (IOException e) {
            throw notDecoded(e);
        }
    }

    /** Whether {@code png} ends with the IEND chunk every whole PNG ends with (a cut-off capture does not). */
    private static boolean endsWithIend(byte[] png) {
        return png.length >= IEND.length
                && Arrays.equals(png, png.length - IEND.length, png.length, IEND, 0, IEND.length);
    }

    private static BufferedImage pixels(byte[] png) {
        try (ImageInputStream input = ImageIO.createImageInputStream(new ByteArrayInputStream(png))) {
            ImageReader reader = reader(input, png.length);
            try {
                return reader.read(0);
            } finally {
                reader.dispose();
            }
        } catch (IOException e) {
            throw notDecoded(e);
        }
    }

    private static ImageReader reader(ImageInputStream input, int length) {
        Iterator<ImageReader> readers = ImageIO.getImageReaders(input);
        if (!readers.hasNext()) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    "screencap -p answered " + length + " bytes that are not a PNG image");
        }
        ImageReader reader = readers.next();
        reader.setInput(input, true, true);
        return reader;
    }

    private static LomiException notDecoded(IOException e) {
        return new LomiException(
                ErrorCode.UNSUPPORTED_CAPABILITY,
                "screencap -p answered a PNG that does not decode: " + e.getMessage());
    }

    private static BufferedImage scaled(BufferedImage screen, double scale) {
        int width = Math.max(1, (int) Math.round(screen.getWidth() * scale));
        int height = Math.max(1, (int) Math.round(screen.getHeight() * scale));
        BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            g.drawImage(screen, 0, 0, width, height, null);
        } finally {
            g.dispose();
        }
        return out;
    }

    private static byte[] encode(BufferedImage image) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(image, "png", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
