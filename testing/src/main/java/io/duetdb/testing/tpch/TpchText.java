package io.duetdb.testing.tpch;

import java.util.SplittableRandom;

/**
 * TPC-H's text pool (clause 4.2.2.10): sentences from the specification's grammar (clause 4.2.2.14) over its
 * word lists, weighted roughly as dbgen's {@code dists.dss} weights them; comments are substrings of the pool at
 * random offsets, so (as with dbgen) they may start and end inside a word. The pool here is 4 MiB rather than
 * dbgen's 300 MB, which only means comments repeat more often at scale factor 1. The words the queries look for
 * ({@code special ... requests}, {@code Customer ... Complaints}) come from the grammar and
 * {@link TpchData}'s supplier comments.
 */
final class TpchText {
    static final int POOL_SIZE = 1 << 22;

    private static final Weighted NOUNS = new Weighted(
            "packages", 40, "requests", 40, "accounts", 40, "deposits", 40, "foxes", 20, "ideas", 20,
            "theodolites", 20, "pinto beans", 20, "instructions", 20, "dependencies", 10, "excuses", 10,
            "platelets", 10, "asymptotes", 10, "courts", 5, "dolphins", 5, "multipliers", 1, "sauternes", 1,
            "warthogs", 1, "frets", 1, "dinos", 1, "attainments", 1, "somas", 1, "Tiresias", 1, "patterns", 1,
            "forges", 1, "braids", 1, "frays", 1, "warhorses", 1, "dugouts", 1, "notornis", 1, "epitaphs", 1,
            "pearls", 1, "tithes", 1, "waters", 1, "orbits", 1, "gifts", 1, "sheaves", 1, "depths", 1,
            "sentiments", 1, "decoys", 1, "realms", 1, "pains", 1, "grouches", 1, "escapades", 1, "hockey players", 1);
    private static final Weighted VERBS = new Weighted(
            "sleep", 20, "wake", 20, "are", 20, "cajole", 20, "haggle", 20, "nag", 10, "use", 10, "boost", 10,
            "affix", 5, "detect", 5, "integrate", 5, "maintain", 1, "nod", 1, "was", 1, "lose", 1, "sublate", 1,
            "solve", 1, "thrash", 1, "promise", 1, "engage", 1, "hinder", 1, "print", 1, "x-ray", 1, "breach", 1,
            "eat", 1, "grow", 1, "impress", 1, "mold", 1, "poach", 1, "serve", 1, "run", 1, "dazzle", 1,
            "snooze", 1, "doze", 1, "unwind", 1, "kindle", 1, "play", 1, "hang", 1, "believe", 1, "doubt", 1);
    private static final Weighted ADJECTIVES = new Weighted(
            "furious", 1, "sly", 1, "careful", 1, "blithe", 1, "quick", 1, "fluffy", 1, "slow", 1, "quiet", 1,
            "ruthless", 1, "thin", 1, "close", 1, "dogged", 1, "daring", 1, "brave", 1, "stealthy", 1,
            "permanent", 1, "enticing", 1, "idle", 1, "busy", 1, "regular", 50, "final", 40, "ironic", 40,
            "even", 30, "bold", 20, "silent", 10, "special", 20, "pending", 20, "unusual", 20, "express", 20);
    private static final Weighted ADVERBS = new Weighted(
            "sometimes", 1, "always", 1, "never", 1, "furiously", 50, "slyly", 50, "carefully", 50,
            "blithely", 40, "quickly", 30, "fluffily", 20, "slowly", 1, "quietly", 1, "ruthlessly", 1,
            "thinly", 1, "closely", 1, "doggedly", 1, "daringly", 1, "bravely", 1, "stealthily", 1,
            "permanently", 1, "enticingly", 1, "idly", 1, "busily", 1, "regularly", 1, "finally", 1,
            "ironically", 1, "evenly", 1, "boldly", 1, "silently", 1);
    private static final Weighted PREPOSITIONS = new Weighted(
            "about", 50, "above", 50, "according to", 50, "across", 50, "after", 50, "against", 40, "along", 40,
            "alongside of", 30, "among", 30, "around", 20, "at", 10, "atop", 1, "before", 1, "behind", 1,
            "beneath", 1, "beside", 1, "besides", 1, "between", 1, "beyond", 1, "by", 1, "despite", 1, "during", 1,
            "except", 1, "for", 1, "from", 1, "in place of", 1, "inside", 1, "instead of", 1, "into", 1, "near", 1,
            "of", 1, "on", 1, "outside", 1, "over", 1, "past", 1, "since", 1, "through", 1, "throughout", 1,
            "to", 1, "toward", 1, "under", 1, "until", 1, "up", 1, "upon", 1, "without", 1, "with", 1, "within", 1);
    private static final Weighted AUXILIARIES = new Weighted(
            "do", 1, "may", 1, "might", 1, "shall", 1, "will", 1, "would", 1, "can", 1, "could", 1, "should", 1,
            "ought to", 1, "must", 1, "will have to", 1, "shall have to", 1, "could have to", 1,
            "should have to", 1, "must have to", 1, "need to", 1, "try to", 1);
    private static final Weighted TERMINATORS = new Weighted(".", 50, ";", 1, ":", 1, "?", 1, "!", 1, "--", 1);

    private static volatile String pool;

    private TpchText() {
    }

    /** The pool, generated once per JVM from a fixed seed. */
    static String pool() {
        String result = pool;
        if (result == null) {
            synchronized (TpchText.class) {
                result = pool;
                if (result == null) {
                    result = generatePool(new SplittableRandom(19920101L), POOL_SIZE);
                    pool = result;
                }
            }
        }
        return result;
    }

    /** A comment of a random length in [min, max]: a substring of the pool at a random offset. */
    static String text(SplittableRandom random, int min, int max) {
        String text = pool();
        int length = min + random.nextInt(max - min + 1);
        int offset = random.nextInt(text.length() - length);
        return text.substring(offset, offset + length);
    }

    static String generatePool(SplittableRandom random, int size) {
        StringBuilder text = new StringBuilder(size + 200);
        while (text.length() < size) {
            sentence(random, text);
            text.append(' ');
        }
        text.setLength(size);
        return text.toString();
    }

    private static void sentence(SplittableRandom random, StringBuilder text) {
        int shape = random.nextInt(11);
        if (shape < 3) {
            nounPhrase(random, text);
            verbPhrase(random, text);
        } else if (shape < 6) {
            nounPhrase(random, text);
            verbPhrase(random, text);
            prepositionalPhrase(random, text);
        } else if (shape < 9) {
            nounPhrase(random, text);
            verbPhrase(random, text);
            nounPhrase(random, text);
        } else if (shape < 10) {
            nounPhrase(random, text);
            prepositionalPhrase(random, text);
            verbPhrase(random, text);
            nounPhrase(random, text);
        } else {
            nounPhrase(random, text);
            prepositionalPhrase(random, text);
            verbPhrase(random, text);
            prepositionalPhrase(random, text);
        }
        text.setLength(text.length() - 1); // the space after the last word
        text.append(TERMINATORS.pick(random));
    }

    private static void nounPhrase(SplittableRandom random, StringBuilder text) {
        switch (random.nextInt(4)) {
            case 0 -> word(text, NOUNS.pick(random));
            case 1 -> {
                word(text, ADJECTIVES.pick(random));
                word(text, NOUNS.pick(random));
            }
            case 2 -> {
                text.append(ADJECTIVES.pick(random)).append(", ");
                word(text, ADJECTIVES.pick(random));
                word(text, NOUNS.pick(random));
            }
            default -> {
                word(text, ADVERBS.pick(random));
                word(text, ADJECTIVES.pick(random));
                word(text, NOUNS.pick(random));
            }
        }
    }

    private static void verbPhrase(SplittableRandom random, StringBuilder text) {
        switch (random.nextInt(4)) {
            case 0 -> word(text, VERBS.pick(random));
            case 1 -> {
                word(text, AUXILIARIES.pick(random));
                word(text, VERBS.pick(random));
            }
            case 2 -> {
                word(text, VERBS.pick(random));
                word(text, ADVERBS.pick(random));
            }
            default -> {
                word(text, AUXILIARIES.pick(random));
                word(text, VERBS.pick(random));
                word(text, ADVERBS.pick(random));
            }
        }
    }

    private static void prepositionalPhrase(SplittableRandom random, StringBuilder text) {
        word(text, PREPOSITIONS.pick(random));
        word(text, "the");
        nounPhrase(random, text);
    }

    private static void word(StringBuilder text, String word) {
        text.append(word).append(' ');
    }

    /** A word list with integer weights, picked in proportion to them. */
    static final class Weighted {
        private final String[] words;
        private final int[] cumulative;

        Weighted(Object... wordsAndWeights) {
            int n = wordsAndWeights.length / 2;
            words = new String[n];
            cumulative = new int[n];
            int total = 0;
            for (int i = 0; i < n; i++) {
                words[i] = (String) wordsAndWeights[2 * i];
                total += (Integer) wordsAndWeights[2 * i + 1];
                cumulative[i] = total;
            }
        }

        String pick(SplittableRandom random) {
            int r = random.nextInt(cumulative[cumulative.length - 1]);
            int low = 0;
            int high = cumulative.length - 1;
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (cumulative[mid] > r) {
                    high = mid;
                } else {
                    low = mid + 1;
                }
            }
            return words[low];
        }
    }
}
