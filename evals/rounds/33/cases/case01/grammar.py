import random

VOCAB = ["<pad>", "<doc>", "</doc>", "<div>", "</div>", "<p>", "</p>", "<ul>", "</ul>",
         "<li>", "</li>", "<b>", "</b>", "<br>", "TEXT"]
TOK = {t: i for i, t in enumerate(VOCAB)}


def _inline(r, out, depth):
    for _ in range(r.randint(1, 3)):
        c = r.random()
        if c < 0.5:
            out.append("TEXT")
        elif c < 0.7 and depth < 3:
            out.append("<b>"); _inline(r, out, depth + 1); out.append("</b>")
        else:
            out.append("<br>")


def _block(r, out, depth):
    c = r.random()
    if c < 0.4 or depth >= 3:
        out.append("<p>"); _inline(r, out, depth); out.append("</p>")
    elif c < 0.7:
        out.append("<ul>")
        for _ in range(r.randint(1, 3)):
            out.append("<li>"); _inline(r, out, depth + 1); out.append("</li>")
        out.append("</ul>")
    else:
        out.append("<div>")
        for _ in range(r.randint(1, 2)):
            _block(r, out, depth + 1)
        out.append("</div>")


def sample_doc(r):
    out = ["<doc>"]
    for _ in range(r.randint(1, 3)):
        _block(r, out, 0)
    out.append("</doc>")
    return out


def corpus(n_docs, seed):
    r = random.Random(seed)
    ids = []
    for _ in range(n_docs):
        ids.extend(TOK[t] for t in sample_doc(r))
    return ids
