# The one image of the service: web (granian, deploy/web.sh), Celery worker and Celery beat differ only in command.

# The pages' npm packages (Pyodide, Workbox), pinned by frontend/package-lock.json, copied to var/vendor
# as `make install` does (frontend/vendor.mjs); only those files go into the image.
FROM node:20-bookworm-slim AS vendor
WORKDIR /app
COPY frontend/package.json frontend/package-lock.json frontend/vendor.mjs frontend/
RUN cd frontend && npm ci --no-audit --no-fund --loglevel=error && node vendor.mjs

FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

COPY pyproject.toml README.md ./
RUN python -m venv /app/.venv \
 && /app/.venv/bin/python -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml","rb"))["project"]["dependencies"]))' > /tmp/requirements.txt \
 && /app/.venv/bin/pip install --no-cache-dir -r /tmp/requirements.txt

COPY . .
COPY --from=vendor /app/var/vendor var/vendor
# The solver's compiled searches (numba) are compiled here, into a cache every process reads.
ENV NUMBA_CACHE_DIR=/app/var/numba
# var/static belongs to yukon: docker-compose.yml's migrate collects into a volume made from it.
RUN useradd --system --uid 1000 yukon && mkdir -p var \
 && /app/.venv/bin/python -c "from games.solver.compiled import warm_up; warm_up()" \
 && DEBUG=1 /app/.venv/bin/python manage.py collectstatic --noinput \
 && chown -R yukon var
USER yukon

ENV PATH=/app/.venv/bin:$PATH BIND=0.0.0.0:8000
EXPOSE 8000
CMD ["deploy/web.sh"]
