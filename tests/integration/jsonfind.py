"""The first object of a JSON document, depth first, that has every key
asked for: a report's section without spelling the path to it
(PYTHONPATH=tests/integration, then `from jsonfind import section`)."""


def section(doc, *keys):
    """The first dict in doc holding all of keys, or None."""
    if isinstance(doc, dict):
        if all(k in doc for k in keys):
            return doc
        children = doc.values()
    elif isinstance(doc, list):
        children = doc
    else:
        return None
    for child in children:
        found = section(child, *keys)
        if found is not None:
            return found
    return None
