FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends openjdk-17-jre-headless && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . /app
RUN pip install --no-cache-dir .
ENV PYSPARK_PYTHON=/usr/local/bin/python
EXPOSE 6875
CMD ["txngate", "serve"]
