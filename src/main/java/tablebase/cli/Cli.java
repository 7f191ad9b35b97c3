package tablebase.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;

/** The front doors' shared exit protocol: one-line errors on stderr, exit 2 for usage mistakes, 1 for failures. */
final class Cli {
    private Cli() {}

    static int run(String name, String usage, Callable<Integer> command) {
        try {
            return command.call();
        } catch (Args.UsageException e) {
            System.err.println(name + ": " + e.getMessage());
            System.err.println(usage);
            return 2;
        } catch (IllegalArgumentException | IOException | UncheckedIOException e) {
            System.err.println(name + ": error: " + oneLine(e));
            return 1;
        } catch (Exception e) {
            System.err.println(name + ": failed: " + e);
            e.printStackTrace();
            return 1;
        }
    }

    private static String oneLine(Exception e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        if (e instanceof java.nio.file.AccessDeniedException) m = m + ": permission denied";
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
